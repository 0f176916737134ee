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
  homeParts,
  type HomeParts,
  type LocalAuthorityOptions,
  type LocalAuthorityStatus,
} from "./node/local-authority.js";
export { FileLogStore, type FileLogStoreOptions, type LedgerStatus, type TornTailRecovery } from "./node/ledger.js";
export { FileSigner, type FileSignerOptions } from "./node/signing-key.js";
export { FileChallengeStore } from "./node/file-challenge-store.js";
export { homePaths, type HomePaths } from "./node/home.js";
export { HomeLockedError, LedgerCorruptError, type HomeLockHolder, type LedgerCorruptionReason } from "./node/errors.js";
export { acquireLock, type AcquireLockOptions, type HomeLock } from "./node/lock.js";
export { readHomeLockHolder } from "./node/home-lock.js";
export { checkLedgerFile, type LedgerCheck, type LedgerCheckOptions } from "./node/ledger-check.js";
export { LEDGER_FORMAT, ledgerFormat, migrateLedger, type LedgerFormat, type MigrateOptions, type MigrationResult } from "./node/ledger-migration.js";
