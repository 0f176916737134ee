import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeSource, renderDiagnostics } from "../src/index.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
const bytes = (...parts: (string | number[])[]) => Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...utf8(p)] : p)));

describe("decodeSource", () => {
  it("decodes valid UTF-8, keeping a byte order mark, with no diagnostics", () => {
    expect(decodeSource(utf8("\ufeffmission caf\u00e9 \u{1f600}\n"), "a.mission")).toEqual({ text: "\ufeffmission caf\u00e9 \u{1f600}\n", diagnostics: [] });
  });

  it("reports invalid UTF-8 once, at the line and column of its first byte", () => {
    const { diagnostics, text } = decodeSource(bytes("mission a {\n  // caf", [0xe9], " \u00e9t\u00e9\n}\n"), "l.mission");
    expect(diagnostics.map((d) => [d.code, d.message, d.range.start.line, d.range.start.column])).toEqual([["M107", "invalid UTF-8: byte 0xe9 at byte offset 20", 2, 9]]);
    expect(renderDiagnostics(diagnostics, text)).toContain("2 |   // caf\ufffd \u00e9t\u00e9\n  |         ^");
  });

  it("rejects overlong forms, surrogates and truncated sequences", () => {
    for (const bad of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82],
    ]) {
      expect(
        decodeSource(bytes("ok ", bad, " and then a line of ordinary text"), "b.mission").diagnostics.map((d) => [d.code, d.range.start.column]),
        bad.join(),
      ).toEqual([["M107", 4]]);
    }
  });

  it("calls a file with NUL bytes, or mostly invalid UTF-8, not a text file: one diagnostic", () => {
    const withNul = decodeSource(bytes("abc\n", [0, 1, 2, 0xff, 0xfe]), "n.mission");
    expect(withNul.diagnostics.map((d) => [d.code, d.message, d.range.start.line])).toEqual([["M106", "not a text file", 2]]);
    const noise = Uint8Array.from({ length: 300_000 }, (_, i) => 0x80 + ((i * 7) % 0x40));
    expect(decodeSource(noise, "noise.mission").diagnostics.map((d) => d.code)).toEqual(["M106"]);
  });

  it("agrees with the strict TextDecoder on every byte string, and locates the first bad byte", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (input) => {
        const { diagnostics } = decodeSource(
          input.filter((b) => b !== 0),
          "p.mission",
        );
        const clean = input.filter((b) => b !== 0);
        let valid = true;
        try {
          new TextDecoder("utf-8", { fatal: true }).decode(clean);
        } catch {
          valid = false;
        }
        expect(diagnostics.length === 0).toBe(valid);
        if (diagnostics[0]?.code === "M107") {
          const offset = Number(/byte offset (\d+)/.exec(diagnostics[0].message)![1]);
          expect(() => new TextDecoder("utf-8", { fatal: true }).decode(clean.subarray(0, offset))).not.toThrow();
        }
      }),
    );
  });
});
