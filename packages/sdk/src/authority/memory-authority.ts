import { ComposedAuthority } from "./composed-authority.js";
import { MemoryChallengeStore } from "./memory-challenge-store.js";
import { MemoryLogStore } from "./memory-log-store.js";
import { MemorySigner } from "./memory-signer.js";
import type { Signer } from "./seams.js";
import type { WitnessingOptions } from "./witnessing-options.js";

export interface MemoryAuthorityOptions {
  /** Time source for `now()`, `issued_unix_ms` and signed heads; defaults to `Date.now`. */
  readonly clock?: () => number | Date;
  /** Signs receipts, heads and challenges; defaults to a new in-memory key (WebCrypto), created on first use. */
  readonly signer?: Signer;
  /** The authority name of its checkpoints' origins; see `AuthorityParts.authorityName`. */
  readonly authorityName?: string;
  /** Witnesses and quorum (docs/witness.md); their state is kept in memory unless `witnessing.store` says otherwise. */
  readonly witnessing?: WitnessingOptions;
}

/**
 * An authority that keeps everything in memory: the key (unless `signer` is
 * given), the clockchain and the outstanding challenges. Platform-free, so
 * it runs in browsers and edge runtimes; its receipts and proofs verify
 * like any other, but the clockchain ends with the process (or page).
 */
export function createMemoryAuthority(options: MemoryAuthorityOptions = {}): ComposedAuthority {
  return new ComposedAuthority({
    signer: options.signer ?? new MemorySigner(),
    log: new MemoryLogStore(),
    challenges: new MemoryChallengeStore(),
    clock: options.clock,
    name: "the in-memory authority",
    authorityName: options.authorityName,
    witnessing: options.witnessing,
  });
}
