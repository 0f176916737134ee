import { ComposedAuthority } from "../authority/composed-authority.js";
import { FileChallengeStore } from "./file-challenge-store.js";
import { defaultHome, homePaths } from "./home.js";
import { FileLogStore, type LedgerStatus } from "./ledger.js";
import { FileSigner } from "./signing-key.js";

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
    const paths = homePaths(options.home ?? defaultHome());
    const lock = { lockWaitMs: options.lockWaitMs };
    const ledger = new FileLogStore(paths, lock);
    super({
      signer: new FileSigner(paths, lock),
      log: ledger,
      challenges: new FileChallengeStore(paths.challenges),
      clock: options.clock,
      name: `the local authority at ${paths.home}`,
    });
    this.home = paths.home;
    this.#ledger = ledger;
  }

  /** Ledger health, including any torn tail removed when it was read. */
  override async status(): Promise<LocalAuthorityStatus> {
    const { key_id } = await super.status();
    return { home: this.home, key_id, ...(await this.#ledger.ledgerStatus()) };
  }
}

export function createLocalAuthority(options: LocalAuthorityOptions = {}): LocalAuthority {
  return new LocalAuthority(options);
}
