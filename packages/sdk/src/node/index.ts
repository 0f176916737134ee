/**
 * `@temporal/agent-sdk/node`: the parts that need Node.js (a home directory,
 * key files, the file ledger): the local authority and the Node default
 * authority. Everything else is imported from `@temporal/agent-sdk`.
 */
export { defaultSdk } from "./default-sdk.js";
export { defaultHome } from "./home.js";
export { FileWitnessingStore } from "./witnessing-file-store.js";
export { LocalAuthority, createLocalAuthority, homeParts, homeWitnessingStore, type HomeParts, type LocalAuthorityOptions, type LocalAuthorityStatus } from "./local-authority.js";
export { FileLogStore, type FileLogStoreOptions, type LedgerStatus, type TornTailRecovery } from "./ledger.js";
export {
  FileSigner,
  KeyFileSigner,
  KeyFileUnreadableError,
  KEY_FILE_LIMIT_BYTES,
  createSigningKeyFile,
  readVerifyingKeyFile,
  type FileSignerOptions,
  type KeyFileUnreadableReason,
} from "./signing-key.js";
export { FileChallengeStore } from "./file-challenge-store.js";
export { homePaths, type HomePaths } from "./home.js";
export { HomeLockedError, LedgerCorruptError, type HomeLockHolder, type LedgerCorruptionReason } from "./errors.js";
export { acquireLock, type AcquireLockOptions, type HomeLock } from "./lock.js";
export { readHomeLockHolder } from "./home-lock.js";
export { makeDirectory, DirectoryNotCreatedError, type MakeDirectoryOptions } from "./make-directory.js";
export { describeErrno, describeIoError, errnoCode } from "./describe-errno.js";
export { checkLedgerFile, type LedgerCheck, type LedgerCheckOptions } from "./ledger-check.js";
export { LEDGER_FORMAT, ledgerFormat, migrateLedger, type LedgerFormat, type MigrateOptions, type MigrationResult } from "./ledger-migration.js";
export { writeFileDurably, type WriteFileDurablyOptions } from "./write-durably.js";
export { readSmallFile, FileTooLargeError } from "./read-small-file.js";
export { describeListenFailure, listenFailureLine } from "./listen-failure.js";
