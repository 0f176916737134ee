/**
 * Authorities composed of three seams — a signer, a log store and a
 * challenge store — with the in-memory implementations of each. Platform-free;
 * the file implementations are in `src/node`.
 */
export {
  ComposedAuthority,
  createAuthority,
  type AnchorPageOptions,
  type AuthorityParts,
  type AuthorityStatus,
  type ChallengeOptions,
  type IssueReceiptOptions,
} from "./composed-authority.js";
export { createMemoryAuthority, type MemoryAuthorityOptions } from "./memory-authority.js";
export { MemorySigner, createMemorySigner, type MemorySignerOptions, type PrivateKeyJwk } from "./memory-signer.js";
export { MemoryLogStore, createMemoryLogStore } from "./memory-log-store.js";
export { MemoryChallengeStore, createMemoryChallengeStore } from "./memory-challenge-store.js";
export {
  ClockchainState,
  type PendingSignature,
  type RecordBody,
  type RecordFailure,
  type RejectRecord,
  type SignedHeads,
  type StagedLeaf,
  type StateParts,
  type StoredAnchor,
  type StoredState,
  type StoredTile,
  type Tile,
} from "./clockchain-state.js";
export type { ReceiptLocation, SortedRun } from "./receipt-index.js";
export { Witnessing, type WitnessedLog } from "./witnessing.js";
export { DEFAULT_WITNESS_INTERVAL_MS, checkWitnessingOptions, type WitnessEndpoint, type WitnessingOptions } from "./witnessing-options.js";
export { MemoryWitnessingStore, isWitnessingRecord, mergeWitnessingRecords, type SharedWitnessingStore, type WitnessingRecord, type WitnessingStore } from "./witnessing-store.js";
export { SerialQueue } from "./serial-queue.js";
export { LogKeys, type HeadSignature } from "./log-keys.js";
export type { ChallengeStore, HeadSigning, LogEntry, LogRecovery, LogStatus, LogStore, Signer, SigningKey } from "./seams.js";
