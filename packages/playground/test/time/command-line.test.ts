import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requireIsoInstant } from "@temporal/agent-sdk";
import { carbonIntensity, hsBlochScore } from "../../../cli/src/run-options.js";
import { commandLines, decimal, isoInstant, shellWord } from "../../src/time/command-line.js";

const none = { at: null, carbon: null, hsBloch: null };

describe("commandLines", () => {
  it("writes run's and show's flags for what is on screen", () => {
    const lines = commandLines("playground.mission", { at: Date.parse("2026-11-26T21:30:00Z"), carbon: 120, hsBloch: 0.95 }, { executesTasks: true });
    expect(lines.run).toBe("temporalc run playground.mission --tasks tasks.mjs --at 2026-11-26T21:30:00Z --carbon 120 --hs-bloch 0.95");
    expect(lines.show).toBe("temporalc show playground.mission --at 2026-11-26T21:30:00Z");
  });

  it("leaves out what is not set: live time, unmeasured measures, no tasks to supply", () => {
    expect(commandLines("a.mission", none, { executesTasks: false })).toEqual({ show: "temporalc show a.mission", run: "temporalc run a.mission" });
  });

  it("quotes a file name with spaces or quotes, and keeps one that starts with a dash from reading as an option", () => {
    expect(commandLines("my missions/it's.mission", none, { executesTasks: false }).run).toBe(`temporalc run 'my missions/it'\\''s.mission'`);
    expect(commandLines("-x.mission", none, { executesTasks: false }).show).toBe("temporalc show ./-x.mission");
  });

  it("writes an instant that run --at reads back exactly", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.parse("1970-01-01T00:00:00Z"), max: Date.parse("9999-12-31T23:59:59Z") }), (ms) => {
        expect(requireIsoInstant(isoInstant(ms))).toBe(ms);
      }),
    );
  });
});

describe("decimal", () => {
  it("writes every carbon value as digits that --carbon parses back to the same number", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e30, noNaN: true }), (value) => {
        expect(carbonIntensity(decimal(value))).toBe(value);
      }),
    );
  });

  it("writes every HS-Bloch score, however small, as digits that --hs-bloch parses back", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (value) => {
        expect(hsBlochScore(decimal(value))).toBe(value);
      }),
    );
    expect(decimal(1e-7)).toBe("0.0000001");
    expect(decimal(1.5e21)).toBe("1500000000000000000000");
  });
});

describe("shellWord", () => {
  it("is read back by a real POSIX shell as the very same word", () => {
    // One shell for all samples: each word printed NUL-terminated, so any text but NUL round-trips.
    const special = fc.constantFrom("'", '"', " ", "\\", "$", "`", "\n", "*", "!", "-", ";", "~", "#", "{", "(", "&", "|", "<");
    const anyCodePoint = fc
      .integer({ min: 1, max: 0x10ffff })
      .filter((c) => c < 0xd800 || c > 0xdfff)
      .map((c) => String.fromCodePoint(c));
    const words = fc.sample(fc.string({ unit: fc.oneof(special, anyCodePoint), minLength: 1 }), 300);
    const out = execFileSync("sh", ["-c", `printf '%s\\0' ${words.map(shellWord).join(" ")}`], { encoding: "utf8" });
    expect(out.split("\0").slice(0, -1)).toEqual(words);
  });

  it("leaves plain words unquoted", () => {
    expect(shellWord("playground.mission")).toBe("playground.mission");
    expect(shellWord("")).toBe("''");
  });
});
