import { ComposedAuthority } from "../authority/composed-authority.js";
import type { VerifyingKey } from "../core/verifying-key.js";
import { FileChallengeStore } from "./file-challenge-store.js";
import { defaultHome, homePaths } from "./home.js";
import { FileLogStore, type LedgerStatus } from "./ledger.js";
import { FileSigner } from "./signing-key.js";
import type { WitnessingOptions } from "../authority/witnessing-options.js";
import { FileWitnessingStore } from "./witnessing-file-store.js";

export type { AnchorPageOptions, ChallengeOptions, IssueReceiptOptions } from "../authority/composed-authority.js";

export interface LocalAuthorityOptions {
  /** Directory for the key, ledger, challenges and lock; defaults to `$TEMPORAL_HOME`, else `./.temporal`. */
  readonly home?: string;
  /** Time source for `now()`, `issued_unix_ms` and signed heads; defaults to `Date.now`. */
  readonly clock?: () => number | Date;
  /**
   * How long a write waits for the home's lock while another process or
   * authority appends, ms; then `HOME_LOCKED`. Defaults to the lock's own
   * default (10 s).
   */
  readonly lockWaitMs?: number;
  /** The authority name of its checkpoints' origins; see `AuthorityParts.authorityName`. */
  readonly authorityName?: string;
  /** Witnesses and quorum (docs/witness.md); their state is kept in the home's `witnessing.json` unless `witnessing.store` says otherwise. */
  readonly witnessing?: WitnessingOptions;
  /**
   * Retired keys of a home whose key was rotated (`readVerifyingKeyFile` reads their PEM files); see
   * `AuthorityParts.previousKeys`. A rotated home also needs the `authorityName` its log was signed under.
   */
  readonly previousKeys?: readonly VerifyingKey[];
}

/** The file seams of one home: its key file, its ledger and its challenge directory. */
export interface HomeParts {
  readonly signer: FileSigner;
  readonly log: FileLogStore;
  readonly challenges: FileChallengeStore;
}

/** The file seams of a home (no I/O until used); `createLocalAuthority` composes them, a service may compose them with other parts. */
export function homeParts(options: Pick<LocalAuthorityOptions, "home" | "lockWaitMs" | "authorityName"> = {}): HomeParts {
  const paths = homePaths(options.home ?? defaultHome());
  const lock = { lockWaitMs: options.lockWaitMs };
  return { signer: new FileSigner(paths, lock), log: new FileLogStore(paths, { ...lock, authorityName: options.authorityName }), challenges: new FileChallengeStore(paths.challenges) };
}

export interface LocalAuthorityStatus extends LedgerStatus {
  readonly home: string;
  readonly key_id: string;
}

/**
 * The embedded authority: the composition of the file seams of a home — the
 * PEM key, the clockchain file and the challenge directory. Any number of
 * processes and authorities may use one home at once; the home's lock is
 * held only while one of them appends or creates the key. Creating one does
 * no I/O; the home is created and verified on first use (or `ready()`).
 */
export class LocalAuthority extends ComposedAuthority {
  readonly home: string;
  readonly #ledger: FileLogStore;

  constructor(options: LocalAuthorityOptions = {}) {
    const { home } = homePaths(options.home ?? defaultHome());
    const parts = homeParts({ home, lockWaitMs: options.lockWaitMs, authorityName: options.authorityName });
    const witnessing = options.witnessing === undefined ? undefined : { store: homeWitnessingStore(home), ...options.witnessing };
    super({ ...parts, clock: options.clock, name: `the local authority at ${home}`, authorityName: options.authorityName, previousKeys: options.previousKeys, witnessing });
    this.home = home;
    this.#ledger = parts.log;
  }

  /** Ledger health, including any torn tail removed when it was read. */
  override async status(): Promise<LocalAuthorityStatus> {
    const { key_id } = await super.status();
    return { home: this.home, key_id, ...(await this.#ledger.ledgerStatus()) };
  }
}

/** The witnessing state of a home, `<home>/witnessing.json`. */
export function homeWitnessingStore(home: string): FileWitnessingStore {
  return new FileWitnessingStore(homePaths(home).witnessing);
}

export function createLocalAuthority(options: LocalAuthorityOptions = {}): LocalAuthority {
  return new LocalAuthority(options);
}
