import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compile } from "../src/index.js";
import { allFixtures } from "./fixtures.js";

/** `UPDATE_GOLDEN=1 npx vitest run` rewrites the golden files; review the diff before committing. */
const update = process.env["UPDATE_GOLDEN"] === "1";

/**
 * The tzdata (`process.versions.tz`) the golden files were written with. M305
 * reads the engine's daylight-saving rules, so on another tzdata the M305s of
 * an IANA-anchored fixture are not compared (the rest still are); the
 * clock-time tests check M305 itself.
 */
const GOLDEN_TZDATA = "2025c";
const sameTzdata = process.versions.tz === GOLDEN_TZDATA;

/** Drops what depends on the engine's tzdata when it is not the golden files' one. */
function comparable(diagnostics: readonly { code: string }[], source: string): readonly { code: string }[] {
  const ianaAnchor = /^@anchor\s+\S*\//m.test(source);
  return sameTzdata || !ianaAnchor ? diagnostics : diagnostics.filter((d) => d.code !== "M305");
}

describe("golden diagnostics", () => {
  for (const fixture of allFixtures()) {
    it(fixture.relativePath, () => {
      const { diagnostics } = compile(fixture.source, { filename: fixture.relativePath });
      const goldenPath = fixture.path.replace(/\.mission$/, ".diagnostics.json");
      if (update) writeFileSync(goldenPath, `${JSON.stringify(diagnostics, null, 2)}\n`);
      expect(existsSync(goldenPath), `missing golden file ${goldenPath}`).toBe(true);
      const golden = JSON.parse(readFileSync(goldenPath, "utf8")) as { code: string }[];
      expect(comparable(diagnostics, fixture.source)).toEqual(comparable(golden, fixture.source));
      const errors = diagnostics.filter((d) => d.severity === "error");
      if (fixture.kind === "valid") expect(errors).toEqual([]);
      else expect(errors.length).toBeGreaterThan(0);
    });
  }
});
