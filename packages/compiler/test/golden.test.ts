import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compile } from "../src/index.js";
import { allFixtures } from "./fixtures.js";

/** `UPDATE_GOLDEN=1 npx vitest run` rewrites the golden files; review the diff before committing. */
const update = process.env["UPDATE_GOLDEN"] === "1";

describe("golden diagnostics", () => {
  for (const fixture of allFixtures()) {
    it(fixture.relativePath, () => {
      const { diagnostics } = compile(fixture.source, { filename: fixture.relativePath });
      const goldenPath = fixture.path.replace(/\.mission$/, ".diagnostics.json");
      if (update) writeFileSync(goldenPath, `${JSON.stringify(diagnostics, null, 2)}\n`);
      expect(existsSync(goldenPath), `missing golden file ${goldenPath}`).toBe(true);
      expect(diagnostics).toEqual(JSON.parse(readFileSync(goldenPath, "utf8")));
      const errors = diagnostics.filter((d) => d.severity === "error");
      if (fixture.kind === "valid") expect(errors).toEqual([]);
      else expect(errors.length).toBeGreaterThan(0);
    });
  }
});
