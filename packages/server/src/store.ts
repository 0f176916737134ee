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
}

export interface ServiceAuthorityOptions {
  /** The home whose files serve as the store and the key when `store` or `signer` is not given. */
  readonly home: string;
  readonly store?: ServiceStore;
  readonly signer?: Signer;
  readonly clock: () => number;
  /** See `ServiceConfig.authority_name`; default `temporal-authority/<key id>`. */
  readonly authorityName?: string;
}

/** The home's ledger and challenge directory, shared with any other process using that home. */
export function fileStore(home: string): ServiceStore {
  const { log, challenges } = homeParts({ home });
  return { log, challenges };
}

export function serviceAuthority(options: ServiceAuthorityOptions): ServiceAuthority {
  const home = homeParts({ home: options.home, authorityName: options.authorityName });
  const { log, challenges } = options.store ?? home;
  return createAuthority({
    signer: options.signer ?? home.signer,
    log,
    challenges,
    clock: options.clock,
    name: `the service's authority (home ${options.home})`,
    authorityName: options.authorityName,
  });
}
