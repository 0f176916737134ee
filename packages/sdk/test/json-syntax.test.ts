import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonSyntaxProblem } from "../src/core/index.js";

/** What jsonSyntaxProblem makes of `text`, which must not be JSON. */
function problemOf(text: string): ReturnType<typeof jsonSyntaxProblem> {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonSyntaxProblem(text, error);
  }
  throw new Error(`${JSON.stringify(text)} is JSON`);
}

describe("jsonSyntaxProblem", () => {
  it("places the token that breaks the text as line:column, and gives V8's reason without echoing the text", () => {
    // V8 quotes a short text whole, and cuts a longer one with "..." on either side.
    for (const [text, where] of [
      ["{/}", "1:2"],
      ['{\n  // a comment, which JSON has not\n  "keys": []\n}', "2:3"],
      [`{${" ".repeat(40)}/x${" ".repeat(40)}}`, "1:42"],
      [`${"[1,".repeat(10)}/${"]".repeat(10)}`, "1:31"],
    ] as const) {
      const { where: found, reason } = problemOf(text);
      expect(found, text).toBe(where);
      expect(reason, text).toMatch(/^(Unexpected token '\/'|Expected property name or '\}')$/);
    }
  });

  it("never puts the text's line breaks or its quoted content in the reason, however much text is around the error", () => {
    // White space of any length around a stray "/": V8 quotes it whole, or cut with "..." on one side or both.
    const space = fc.string({ unit: fc.constantFrom(" ", "\n", "\t"), maxLength: 60 });
    fc.assert(
      fc.property(space, space, (before, after) => {
        const { reason } = problemOf(`[1,${before}/${after}]`);
        expect(reason).toBe("Unexpected token '/'");
      }),
      { numRuns: 200 },
    );
  });
});
