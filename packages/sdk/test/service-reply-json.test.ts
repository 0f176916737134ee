import { allowResult, contextAt, coreState, type PhaseContext, type ZoneInput } from "../src/index.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allowJson, contextJson, coreStateJson } from "../src/service/reply-json.js";

// A few instants, so that a run mixes repeats (the kept text is reused) with changes of instant, zone and source.
const instant = fc.oneof(fc.constantFrom(0, -1, 1_795_439_850_357, 1_795_439_850_358), fc.integer({ min: -8.64e15, max: 8.64e15 }));
const zone: fc.Arbitrary<ZoneInput> = fc.oneof(
  fc.integer({ min: 0, max: 11 }),
  fc.integer({ min: 0, max: 11 }).map((n) => `Z${n}` as const),
);
const source = fc.constantFrom<PhaseContext["source"]>("local", "remote");
const degrees = fc.double({ min: 0, max: 360, noNaN: true });
const context = fc.tuple(instant, zone, source).map(([ms, z, s]) => contextAt(ms, { zone: z, source: s }));

function beyondDateRange(fn: () => unknown): boolean {
  try {
    fn();
    return false;
  } catch (error) {
    if ((error as { code?: unknown }).code === "BEYOND_DATE_RANGE") return true;
    throw error;
  }
}

describe("reply JSON", () => {
  it("gives JSON.stringify's text for contexts in any order, repeated or not", () => {
    fc.assert(
      fc.property(fc.array(context, { minLength: 1, maxLength: 30 }), (contexts) => {
        for (const ctx of [...contexts, ...[...contexts].reverse()]) expect(contextJson(ctx)).toBe(JSON.stringify(ctx));
      }),
    );
  });

  it("gives JSON.stringify's text for allow replies, whatever the window", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(context, degrees, degrees), { minLength: 1, maxLength: 30 }), (cases) => {
        for (const [ctx, start, end] of cases) {
          // In the Date range's last day a window may not open again: no reply to format (the service answers 400).
          if (beyondDateRange(() => allowResult(ctx, [start, end]))) continue;
          const result = allowResult(ctx, [start, end]);
          expect(allowJson(result)).toBe(JSON.stringify(result));
        }
      }),
    );
  });

  it("gives JSON.stringify's text for core/state replies in any order, repeated or not", () => {
    fc.assert(
      fc.property(fc.array(context, { minLength: 1, maxLength: 30 }), (contexts) => {
        for (const ctx of [...contexts, ...[...contexts].reverse()]) expect(coreStateJson(coreState(ctx))).toBe(JSON.stringify(coreState(ctx)));
      }),
    );
  });

  it("writes only ASCII, which the routes that use it promise the transport (asciiReply)", () => {
    const ascii = /^[\x20-\x7e]*$/;
    fc.assert(
      fc.property(context, degrees, degrees, (ctx, start, end) => {
        expect(contextJson(ctx)).toMatch(ascii);
        expect(coreStateJson(coreState(ctx))).toMatch(ascii);
        if (!beyondDateRange(() => allowResult(ctx, [start, end]))) expect(allowJson(allowResult(ctx, [start, end]))).toMatch(ascii);
      }),
    );
  });

  it("does not reuse a context's text for another context of the same instant", () => {
    const ms = 1_795_439_850_357;
    const texts = new Set<string>();
    for (let z = 0; z < 12; z++) for (const s of ["local", "remote"] as const) texts.add(contextJson(contextAt(ms, { zone: z, source: s })));
    expect(texts.size).toBe(24);
  });

  it("falls back to JSON.stringify for a context the SDK does not make", () => {
    const ctx = contextAt(1_795_439_850_357, { zone: 1, source: "remote" });
    contextJson(ctx);
    for (const odd of [
      { ...ctx, source: "elsewhere" },
      { ...ctx, swt_zone: 12 },
      { ...ctx, swt_zone: 0.5 },
      { ...ctx, swt_zone: "1" },
    ] as unknown as PhaseContext[]) {
      expect(contextJson(odd)).toBe(JSON.stringify(odd));
    }
  });
});
