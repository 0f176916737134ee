import {
  ComposedAuthority,
  type AuthorityParts,
  type ChallengeStore,
  type ClockchainStatus,
  type LogStore,
  type Signer,
  type VerifyingKey,
  type WitnessingOptions,
  type WitnessingStore,
} from "@temporal/agent-sdk";
import { homeParts, homeWitnessingStore } from "@temporal/agent-sdk/node";
import type { ServiceAuthority } from "@temporal/agent-sdk/service";
import { CHECK_REUSE_MS, reusedFor } from "./health.js";

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
  /** Witnessing's state when several nodes share it (PostgreSQL); without it each node keeps its own in its home's witnessing.json. */
  readonly witnessing?: WitnessingStore;
  /** How the store is doing, for `GET /readyz` and the status; a store without it is ready once the authority opened it. Must not touch the ledger heavily. */
  readonly health?: () => Promise<StoreHealth>;
  /** Gives back what the store holds beyond its two seams (a database pool), after they are closed. */
  readonly close?: () => Promise<void>;
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
  /** How this node names itself in `GET clockchain/status`; default: absent. */
  readonly nodeId?: string;
  /** Retired keys the clockchain rotated from: its older checkpoints may be signed by them, and `GET keys` still lists them (see `AuthorityParts.previousKeys`). */
  readonly previousKeys?: readonly VerifyingKey[];
  /** Witnesses and quorum; their state (cosigned checkpoints, fork evidence) is kept by the store when it has a witnessing store, else in the home's witnessing.json. */
  readonly witnessing?: WitnessingOptions;
  /** Wraps the store the authority uses (the given one or the home's), so the service can time its calls for its metrics. */
  readonly instrument?: (store: ServiceStore) => ServiceStore;
}

/** The home's ledger and challenge directory, shared with any other process using that home. */
export function fileStore(home: string): ServiceStore {
  const { log, challenges } = homeParts({ home });
  return { log, challenges };
}

/**
 * The SDK's composed authority as one service node runs it: its status
 * names the node and whether the store answers, and closing it also
 * closes the store.
 */
class ServiceNodeAuthority extends ComposedAuthority {
  readonly #store: ServiceStore;
  /** The store's health for `clockchain/status`, asked at most once a second: the status is public, so a client polling it must not make every call a database round trip. */
  readonly #health: (() => Promise<StoreHealth>) | undefined;
  readonly #nodeId: string | undefined;

  constructor(parts: AuthorityParts & { readonly store: ServiceStore }, options: ServiceAuthorityOptions) {
    super(parts);
    this.#store = parts.store;
    const { health } = parts.store;
    this.#health = health === undefined ? undefined : reusedFor(CHECK_REUSE_MS, () => health.call(parts.store));
    this.#nodeId = options.nodeId;
  }

  override async clockchainStatus(): Promise<ClockchainStatus> {
    const [status, health] = await Promise.all([super.clockchainStatus(), this.#health?.() ?? { reachable: true }]);
    return { ...status, store: { ...status.store, ...(this.#nodeId === undefined ? {} : { node_id: this.#nodeId }), reachable: health.reachable } };
  }

  override async close(): Promise<void> {
    try {
      await super.close();
    } finally {
      // The pool is given back even when closing the authority failed, so the process is not held open by it.
      await this.#store.close?.();
    }
  }
}

export function serviceAuthority(options: ServiceAuthorityOptions): ServiceAuthority {
  const home = homeParts({ home: options.home, authorityName: options.authorityName });
  const store = options.store ?? home;
  const { log, challenges } = options.instrument === undefined ? store : options.instrument(store);
  return new ServiceNodeAuthority(
    {
      signer: options.signer ?? home.signer,
      log,
      challenges,
      // The store itself, not the instrumented one: the node asks it for its health and closes it.
      store,
      clock: options.clock,
      name: options.store === undefined ? `the service's authority (home ${options.home})` : `the service's authority (${store.log.kind} store)`,
      authorityName: options.authorityName,
      previousKeys: options.previousKeys,
      // The shared store's when it has one, so every node agrees on finality (docs/witness.md); else the home's file.
      witnessing: options.witnessing === undefined ? undefined : { store: options.store?.witnessing ?? homeWitnessingStore(options.home), ...options.witnessing },
    },
    options,
  );
}
