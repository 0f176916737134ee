import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { visibleRange } from "../src/editor/diagnostic-range.js";
import { createWorkerHandlers } from "../src/worker/handlers.js";
import { PROTOCOL_VERSION } from "../src/worker/protocol.js";

describe("the range the editor underlines for a diagnostic", () => {
  it("underlines the character the parser read last for a syntax error at the end of the file, with or without a final line break", async () => {
    for (const text of ["mission oops {", "mission oops {\n", "mission oops {  \n\n"]) {
      const response = await createWorkerHandlers().handle({ protocol: PROTOCOL_VERSION, id: 1, version: 1, method: "update", params: { text, filename: "p.mission" } });
      if (response.outcome !== "ok") throw new Error(JSON.stringify(response));
      const { diagnostics } = response.result as { diagnostics: { from: number; to: number; code: string }[] };
      const syntax = diagnostics.find((d) => d.code === "M102");
      // The language service puts it where the file ends, with no width.
      expect(syntax, text).toMatchObject({ from: text.length, to: text.length });
      expect(visibleRange(syntax!.from, syntax!.to, text), JSON.stringify(text)).toEqual({ from: 13, to: 14 });
    }
  });

  it("underlines the first character for a zero-width problem at the start, and keeps a range that has a width", () => {
    expect(visibleRange(0, 0, "mission m {}")).toEqual({ from: 0, to: 1 });
    expect(visibleRange(8, 9, "mission m {}")).toEqual({ from: 8, to: 9 });
    expect(visibleRange(0, 0, "")).toEqual({ from: 0, to: 0 });
    expect(visibleRange(40, 50, "abc")).toEqual({ from: 2, to: 3 });
  });

  it("is always inside the text, and has a width whenever the text has a character that is not white space", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.nat(40), fc.nat(40), (text, a, b) => {
        const { from, to } = visibleRange(Math.min(a, b), Math.max(a, b), text);
        expect(0 <= from && from <= to && to <= text.length).toBe(true);
        if (text.trim() !== "" || Math.min(a, b) < text.length) expect(to - from).toBeGreaterThan(0);
      }),
    );
  });
});
