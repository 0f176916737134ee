import { describe, expect, it } from "vitest";
import { format, goldenFixtures, layoutProblems } from "./helpers.js";

/**
 * fixtures/format/<name>.input.mission formats to <name>.output.mission, and
 * the output is already formatted. To add a case, write the input, run the
 * formatter, and read the output line by line before committing it.
 */
describe("golden fixtures (fixtures/format)", () => {
  const fixtures = goldenFixtures();

  it("has the kinds of input the format has to handle", () => {
    expect(fixtures.map((f) => f.name)).toEqual(
      expect.arrayContaining(["messy-spacing", "comments-everywhere", "prettier-ignore", "crlf", "empty-blocks", "keywords-as-names", "long-file"]),
    );
    expect(fixtures.find((f) => f.name === "crlf")!.input).toContain("\r\n");
    expect(fixtures.find((f) => f.name === "long-file")!.input.split("\n").length).toBeGreaterThan(300);
  });

  for (const fixture of fixtures) {
    describe(fixture.name, () => {
      it("formats the input to the output", async () => {
        expect(await format(fixture.input)).toBe(fixture.output);
      });

      it("leaves the output as it is", async () => {
        expect(await format(fixture.output)).toBe(fixture.output);
      });

      it("output follows the layout rules", () => {
        expect(layoutProblems(fixture.output)).toEqual([]);
      });
    });
  }
});
