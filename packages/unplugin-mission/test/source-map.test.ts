import { readFile } from "node:fs/promises";
import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import { afterAll, describe, expect, it } from "vitest";
import { REQUIRE_PHASE_LINE, writeApp, type App } from "./app.js";
import { buildWithEsbuild, buildWithVite, readMap, type Build } from "./bundlers.js";

const apps: App[] = [];
afterAll(() => Promise.all(apps.map((app) => app.remove())));

/** The 1-based line and 0-based column of the first `allow(` call in the bundle. */
function findAllowCall(code: string): { line: number; column: number } {
  const lines = code.split("\n");
  const line = lines.findIndex((text) => /\ballow\(ctx/.test(text));
  if (line < 0) throw new Error("no allow(ctx, ...) call in the bundle");
  return { line: line + 1, column: lines[line]!.search(/\ballow\(ctx/) };
}

describe.each([
  ["vite", buildWithVite],
  ["esbuild", buildWithEsbuild],
] as [string, Build][])("%s source map", (name, build) => {
  it("maps the allow() call back to the require phase line of the mission", async () => {
    const app = await writeApp(`${name}-map`);
    apps.push(app);
    const bundle = await build(app);
    const original = originalPositionFor(new TraceMap(await readMap(bundle)), findAllowCall(await readFile(bundle, "utf8")));
    expect(original.source).toMatch(/window\.mission$/);
    expect(original.line).toBe(REQUIRE_PHASE_LINE);
  });
});
