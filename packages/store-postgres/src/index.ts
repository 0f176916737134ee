/**
 * `@temporal/store-postgres`: the clockchain and the outstanding challenges in PostgreSQL, so that several
 * temporal-service nodes are one authority. It implements the SDK's `LogStore` and `ChallengeStore` seams;
 * the service composes the same authority over them as over its files.
 */
export { openPostgresStore, type PostgresStore, type PostgresStoreOptions, type StoreHealth } from "./postgres-store.js";
export { redactUrl } from "./redact-url.js";
export { parsePostgresUrl } from "./postgres-url.js";
