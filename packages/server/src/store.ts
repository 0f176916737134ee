import { createAuthority, type ChallengeStore, type LogStore, type Signer } from "@temporal/agent-sdk";
import { homeParts } from "@temporal/agent-sdk/node";
import type { ServiceAuthority } from "@temporal/agent-sdk/service";

export type { ServiceAuthority } from "@temporal/agent-sdk/service";

/**
 * What the service keeps: the clockchain and the outstanding challenges.
 * The embedded default is the files of the SDK's home (`--home`); another
 * store, such as PostgreSQL, implements these two seams of the SDK and the
 * service composes the same authority over them.
 */
export interface ServiceStore {
  readonly log: LogStore;
  readonly challenges: ChallengeStore;
  /** How the store is doing, for `GET /readyz` and the status; a store without it is ready once the authority opened it. Must not touch the ledger heavily. */
  readonly health?: () => Promise<StoreHealth>;
}

/** A store's answer to a health check: ready when reachable with its migrations applied. */
export interface StoreHealth {
  /** The store's kind, as `clockchain/status` names it ("postgres", ...). */
  readonly kind: string;
  readonly reachable: boolean;
  readonly migrations: "applied" | "pending" | "unknown";
  readonly latency_ms?: number;
  /** Why it is not reachable or not ready, in words an operator can act on. */
  readonly detail?: string;
}

export interface ServiceAuthorityOptions {
  /** The home whose files serve as the store and the key when `store` or `signer` is not given. */
  readonly home: string;
  readonly store?: ServiceStore;
  readonly signer?: Signer;
  readonly clock: () => number;
  /** See `ServiceConfig.authority_name`; default `temporal-authority/<key id>`. */
  readonly authorityName?: string;
  /** Wraps the store the authority uses (the given one or the home's), so the service can time its calls for its metrics. */
  readonly instrument?: (store: ServiceStore) => ServiceStore;
}

/** The home's ledger and challenge directory, shared with any other process using that home. */
export function fileStore(home: string): ServiceStore {
  const { log, challenges } = homeParts({ home });
  return { log, challenges };
}

export function serviceAuthority(options: ServiceAuthorityOptions): ServiceAuthority {
  const home = homeParts({ home: options.home, authorityName: options.authorityName });
  const store = options.store ?? home;
  const { log, challenges } = options.instrument === undefined ? store : options.instrument(store);
  return createAuthority({
    signer: options.signer ?? home.signer,
    log,
    challenges,
    clock: options.clock,
    name: `the service's authority (home ${options.home})`,
    authorityName: options.authorityName,
  });
}
