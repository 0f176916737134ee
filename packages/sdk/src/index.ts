/**
 * `@temporal/agent-sdk`: everything that runs on any platform (browsers,
 * Deno, edge runtimes, Node): the pure core (also at
 * `@temporal/agent-sdk/core`), the HTTP client, `defineMission`, and
 * `defaultSdk`, which the package's `#default-sdk` import picks per platform.
 * The Node-only parts (the local authority, its home and clockchain) are at
 * `@temporal/agent-sdk/node`.
 */
export * from "./core/index.js";
export * from "./mission/index.js";
export { defaultSdk } from "#default-sdk";
export * from "./ztt/index.js";
