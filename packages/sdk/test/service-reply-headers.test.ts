import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utf8Length } from "../src/service/reply-headers.js";

describe("utf8Length (the Content-Length of every reply)", () => {
  it("is Buffer.byteLength of any string: ASCII, 2-, 3- and 4-byte characters, lone surrogates", () => {
    const text = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.string({ unit: "grapheme" }),
      fc.string({ unit: fc.integer({ min: 0xd7f0, max: 0xe010 }).map((unit) => String.fromCharCode(unit)) }),
    );
    fc.assert(
      fc.property(text, (s) => {
        expect(utf8Length(s)).toBe(Buffer.byteLength(s, "utf8"));
      }),
      { numRuns: 2000 },
    );
  });

  it("counts a few pinned cases", () => {
    expect([utf8Length(""), utf8Length("a"), utf8Length("é"), utf8Length("€"), utf8Length("😀"), utf8Length("\ud800"), utf8Length("\udc00\ud800")]).toEqual([0, 1, 2, 3, 4, 3, 6]);
  });
});
