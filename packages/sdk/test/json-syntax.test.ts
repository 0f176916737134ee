import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonSyntaxProblem } from "../src/core/index.js";
import { jsonErrorOffset } from "../src/core/json-syntax.js";

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

describe("jsonErrorOffset", () => {
  it("is undefined for JSON and points at the token that breaks it otherwise", () => {
    expect(jsonErrorOffset('{"a": [1, 2.5e3, "x\\n", true, null]}')).toBeUndefined();
    expect(jsonErrorOffset('{"a": }')).toBe(6);
    expect(jsonErrorOffset("[1, 2,]")).toBe(6);
    expect(jsonErrorOffset("[1] x")).toBe(4);
    expect(jsonErrorOffset("")).toBe(0);
  });

  it("property: agrees with JSON.parse on every JSON text and every prefix of one", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.boolean(), (value, cut, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(jsonErrorOffset(text)).toBeUndefined();
        const prefix = text.slice(0, cut % (text.length + 1));
        let parses = true;
        try {
          JSON.parse(prefix);
        } catch {
          parses = false;
        }
        const offset = jsonErrorOffset(prefix);
        expect(offset === undefined).toBe(parses);
        if (offset !== undefined) expect(offset).toBeLessThanOrEqual(prefix.length);
      }),
      { numRuns: 300 },
    );
  });
});
