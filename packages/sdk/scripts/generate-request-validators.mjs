#!/usr/bin/env node
/**
 * Writes src/service/request-validators.{body,query}.generated.ts from the built schemas (dist): run
 * `npm run build` first, then this, after changing a request schema. A test fails while they are stale.
 */
import { rename, writeFile } from "node:fs/promises";
import { REQUESTS } from "../dist/service/schemas.js";
import { ROUTES } from "../dist/service/routes.js";
import { requestValidatorsSource } from "./request-validators-source.mjs";

const sources = requestValidatorsSource(ROUTES, REQUESTS);
for (const [part, text] of Object.entries(sources)) {
  const path = new URL(`../src/service/request-validators.${part}.generated.ts`, import.meta.url);
  // Written whole and renamed over, so a build never sees half a file.
  const temp = new URL(`${path.href}.${process.pid}.tmp`);
  await writeFile(temp, text);
  await rename(temp, path);
  console.log(`wrote ${path.pathname}`);
}
