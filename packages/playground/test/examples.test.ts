import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_EXAMPLE, EXAMPLES } from "../src/examples.js";

const examplesDir = new URL("../../../examples/", import.meta.url);

describe("the examples menu", () => {
  it("offers every examples/*.mission of the repository, with its exact text, by name", () => {
    const files = readdirSync(examplesDir)
      .filter((name) => name.endsWith(".mission"))
      .sort((a, b) => a.localeCompare(b));
    expect(EXAMPLES.map((example) => `${example.name}.mission`)).toEqual(files);
    for (const example of EXAMPLES) expect(example.source).toBe(readFileSync(new URL(`${example.name}.mission`, examplesDir), "utf8"));
  });

  it("opens on the nightly backup", () => {
    expect(DEFAULT_EXAMPLE.name).toBe("nightly-backup");
  });
});
