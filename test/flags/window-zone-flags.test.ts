/**
 * `temporalc verify --window/--zone` and `temporal-service --ztt-window/--ztt-zone` take the same text and read it
 * the same way (the SDK's `parseWindowText`/`parseZoneText`): each CLI's own reading, in process, on any string.
 * The commands themselves, in child processes, are in packages/cli/test/verify.test.ts and packages/server/test/ztt.test.ts.
 */
import { WINDOW_TEXT_RULE, ZONE_TEXT_RULE } from "@temporal/agent-sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectedOpening } from "../../packages/cli/src/commands/verify.js";
import { VerifyUsageError } from "../../packages/cli/src/commands/verify-input.js";
import { program } from "../../packages/server/src/cli.js";

type Reading = { value: unknown } | { refused: string };

/** temporal-service's option as Commander applies it to the flag's text. */
function serviceFlag(flag: "--ztt-window" | "--ztt-zone", rule: string): (text: string) => Reading {
  const option = program().options.find((o) => o.long === flag);
  if (option?.parseArg === undefined) throw new Error(`temporal-service has no parsed ${flag}`);
  const parse = option.parseArg;
  return (text) => {
    try {
      return { value: parse(text, undefined) };
    } catch (error) {
      // Commander's InvalidArgumentError, told apart by its message (the rule) rather than its class, so this test needs no commander of its own.
      if (error instanceof Error && error.message === rule) return { refused: "usage" };
      throw error;
    }
  };
}

/** temporalc verify's reading of --window or --zone. */
function temporalcFlag(name: "window" | "zone"): (text: string) => Reading {
  return (text) => {
    try {
      return { value: expectedOpening({ [name]: text })[name] };
    } catch (error) {
      if (error instanceof VerifyUsageError) return { refused: "usage" };
      throw error;
    }
  };
}

const window = { service: serviceFlag("--ztt-window", WINDOW_TEXT_RULE), temporalc: temporalcFlag("window") };
const zone = { service: serviceFlag("--ztt-zone", ZONE_TEXT_RULE), temporalc: temporalcFlag("zone") };

/** Strings near the accepted forms as well as anything at all. */
const windowLike = fc.oneof(
  fc.string(),
  fc.tuple(fc.double({ min: -10, max: 400 }), fc.constantFrom(",", ", ", ";", " "), fc.double({ min: -10, max: 400 })).map(([a, sep, b]) => `${a}${sep}${b}`),
  // Valid windows: thousandths of a degree, which String() writes in plain decimal (it uses an exponent only below 1e-6).
  fc.tuple(fc.integer({ min: 0, max: 360_000 }), fc.integer({ min: 0, max: 360_000 })).map(([a, b]) => `${a / 1000},${b / 1000}`),
);
const zoneLike = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -2, max: 14 }).chain((n) => fc.constantFrom(String(n), `Z${n}`, `z${n}`, `0${n}`, ` ${n}`)),
);

describe("temporalc verify and temporal-service read a window and a zone alike", () => {
  it("accept and refuse the same window texts, with the same value", () => {
    fc.assert(
      fc.property(windowLike, (text) => {
        expect(window.temporalc(text)).toEqual(window.service(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("accept and refuse the same zone texts, with the same value", () => {
    fc.assert(
      fc.property(zoneLike, (text) => {
        expect(zone.temporalc(text)).toEqual(zone.service(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("take the forms the docs give", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 11 }), (n) => {
        for (const text of [`Z${n}`, String(n)]) expect([zone.temporalc(text), zone.service(text)]).toEqual([{ value: n }, { value: n }]);
      }),
    );
    for (const reading of [window.temporalc, window.service]) {
      expect(reading("330,30")).toEqual({ value: [330, 30] });
      expect(reading("0,360")).toEqual({ value: [0, 360] });
      expect(reading("1e2,30")).toEqual({ refused: "usage" });
      expect(reading("0,400")).toEqual({ refused: "usage" });
    }
  });
});
