import { readFileSync } from "node:fs";

/** The version of @temporal/server, as its package.json says (read from dist/ or src/, both beside it). */
export const SERVICE_VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
