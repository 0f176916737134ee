/**
 * `@temporal/agent-sdk`: the pure core (also at `@temporal/agent-sdk/core`)
 * plus the Node.js local authority and its clockchain.
 */
export * from "./core/index.js";
export * from "./mission/index.js";
export { defaultSdk } from "./node/default-sdk.js";
export { defaultHome } from "./node/home.js";
export {
  LocalAuthority,
  createLocalAuthority,
  type AnchorPageOptions,
  type ChallengeOptions,
  type IssueReceiptOptions,
  type LocalAuthorityOptions,
  type LocalAuthorityStatus,
} from "./node/local-authority.js";
export type { LedgerStatus, TornTailRecovery } from "./node/ledger.js";
export { HomeLockedError, LedgerCorruptError, type HomeLockHolder, type LedgerCorruptionReason } from "./node/errors.js";
export { acquireLock, type AcquireLockOptions, type HomeLock } from "./node/lock.js";
