import fc from "fast-check";
import type {
  AnchorClause,
  AnchorDirective,
  AnchorStatement,
  ClockTimeLiteral,
  Directive,
  Handler,
  Identifier,
  Mission,
  MissionFile,
  MissionItem,
  NumberLiteral,
  PhaseBound,
  SourceRange,
  Statement,
  VersionDirective,
} from "../src/ast.js";
import { clockTimeDegrees } from "../src/clock-time.js";
import { KEYWORDS } from "../src/tokens.js";

/**
 * Syntactically valid mission ASTs. Ranges are placeholders: the printer
 * ignores them and comparisons strip them.
 */
const range: SourceRange = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };

export const nameArb: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,11}$/),
  fc.constantFrom(...KEYWORDS, "default", "delete", "new", "constructor", "__proto__", "v2", "toString"),
);

const identifier = (name: string): Identifier => ({ kind: "Identifier", name, range });

export const numberArb = (min: number, max: number): fc.Arbitrary<NumberLiteral> =>
  fc.tuple(fc.integer({ min, max }), fc.option(fc.stringMatching(/^[0-9]{1,4}$/), { nil: undefined })).map(([whole, fraction]) => {
    const raw = fraction === undefined ? String(whole) : `${whole}.${fraction}`;
    return { kind: "NumberLiteral", value: Number(raw), raw, range };
  });

const versionArb: fc.Arbitrary<VersionDirective> = fc.tuple(fc.nat(20), fc.option(fc.nat(20), { nil: null }), fc.option(fc.nat(20), { nil: null })).map(([major, minor, patch]) => {
  const p = minor === null ? null : patch;
  const raw = `v${major}${minor === null ? "" : `.${minor}`}${p === null ? "" : `.${p}`}`;
  return { kind: "VersionDirective", version: { raw, major, minor, patch: p }, range };
});

/** Clock times as written, valid or not: `20:00`, `24:00`, `9:30`, `20:00:59`, `25:61`. */
export const clockTimeArb: fc.Arbitrary<ClockTimeLiteral> = fc
  .tuple(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.option(fc.integer({ min: 0, max: 61 }), { nil: undefined }), fc.boolean())
  .map(([hours, minutes, seconds, padded]) => {
    const field = (n: number) => String(n).padStart(padded ? 2 : 1, "0");
    const raw = `${field(hours)}:${String(minutes).padStart(2, "0")}${seconds === undefined ? "" : `:${String(seconds).padStart(2, "0")}`}`;
    return { kind: "ClockTime", value: clockTimeDegrees(raw), raw, range };
  });

const boundArb: fc.Arbitrary<PhaseBound> = fc.oneof(numberArb(-20, 400), clockTimeArb);

export const TIME_ZONE_NAMES = ["Europe/Paris", "America/New_York", "Australia/Sydney", "America/Argentina/Buenos_Aires", "Etc/GMT+5", "America/Port-au-Prince", "UTC"];

/** SWT codes (valid or not) and IANA names (known, or not: `zone`, `Mars/Olympus`). */
const anchorArb: fc.Arbitrary<AnchorDirective> = fc
  .oneof(
    fc.nat(11).map((zone): [string, number | null] => [`Z${zone}`, zone]),
    fc.constantFrom<[string, number | null]>(["Z12", null], ["Z01", null], ["z1", null]),
    fc.constantFrom(...TIME_ZONE_NAMES, "zone", "Mars/Olympus").map((name): [string, number | null] => [name, null]),
  )
  .map(([code, zone]) => ({ kind: "AnchorDirective", code: identifier(code), zone, timeZone: /^[Zz]\d+$/.test(code) ? null : code, range }));

const statementArb: fc.Arbitrary<Statement> = fc.oneof(
  nameArb.map((name): Statement => ({ kind: "ExecuteStatement", task: identifier(name), range })),
  // Clauses in any order and number, repeats included: the parser takes them all, the checker judges them.
  fc
    .array(
      fc.oneof(
        fc.constant<AnchorClause>({ kind: "SignedZtt", range }),
        numberArb(-2, 200).map((value): AnchorClause => ({ kind: "Quorum", value, range })),
      ),
      { maxLength: 2 },
    )
    .map(anchorStatement),
);

/** An anchor statement with these clauses, its first quorum and `signed ZTT` found as the parser finds them. */
export function anchorStatement(clauses: AnchorClause[]): AnchorStatement {
  const quorum = clauses.flatMap((c) => (c.kind === "Quorum" ? [c.value] : []))[0] ?? null;
  return { kind: "AnchorStatement", quorum, signedZtt: clauses.find((c) => c.kind === "SignedZtt") ?? null, clauses, range };
}

const itemArb: fc.Arbitrary<MissionItem> = fc.oneof(
  fc.tuple(boundArb, boundArb).map(([start, end]): MissionItem => ({ kind: "PhaseRequirement", start, end, range })),
  fc.tuple(fc.constantFrom("<" as const, "<=" as const), numberArb(-10, 2000)).map(([operator, threshold]): MissionItem => ({ kind: "CarbonRequirement", operator, threshold, range })),
  fc.tuple(fc.constantFrom(">=" as const, ">" as const), numberArb(-1, 2)).map(([operator, threshold]): MissionItem => ({ kind: "HsBlochRequirement", operator, threshold, range })),
  fc.tuple(fc.constantFrom("ALLOW" as const, "DENY" as const), fc.array(statementArb, { maxLength: 4 })).map(([verdict, body]): Handler => ({ kind: "Handler", verdict, body, range })),
);

const missionArb: fc.Arbitrary<Mission> = fc.tuple(nameArb, fc.array(itemArb, { maxLength: 6 })).map(([name, items]) => ({ kind: "Mission", name: identifier(name), items, range }));

export const missionFileArb: fc.Arbitrary<MissionFile> = fc
  .tuple(fc.array(fc.oneof(versionArb, anchorArb) as fc.Arbitrary<Directive>, { maxLength: 3 }), fc.array(missionArb, { maxLength: 4 }))
  .map(([directives, missions]) => ({ kind: "MissionFile", filename: "<input>", directives, missions, comments: [], range }));

/** The tree without source ranges, for comparing trees parsed from different text. */
export function withoutRanges(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === "range" ? undefined : v)));
}

/**
 * Mission files the checker accepts without errors: windows that share a
 * point, realistic thresholds, mission names unique ignoring case, at most
 * one block per verdict.
 */
export const validMissionFileArb: fc.Arbitrary<MissionFile> = fc
  .tuple(
    fc.option(fc.nat(11), { nil: undefined }),
    // Unique ignoring case: anchoring missions whose names differ only in case are an error (M507).
    fc.uniqueArray(nameArb, { minLength: 1, maxLength: 3, selector: (name) => name.toLowerCase() }),
    fc.array(
      fc.record({
        sharedPoint: fc.nat(359_999),
        spans: fc.array(
          fc.tuple(fc.nat(179_999), fc.nat(179_999)).filter(([a, b]) => a + b > 0),
          { maxLength: 2 },
        ),
        carbon: fc.option(fc.tuple(fc.constantFrom("<" as const, "<=" as const), fc.integer({ min: 1, max: 1_200_000 })), { nil: undefined }),
        hsBloch: fc.option(fc.tuple(fc.constantFrom(">=" as const, ">" as const), fc.integer({ min: 0, max: 999 })), { nil: undefined }),
        allow: fc.uniqueArray(nameArb, { maxLength: 3 }),
        anchorOnAllow: fc.boolean(),
        quorum: fc.option(fc.integer({ min: 1, max: 100 }), { nil: null }),
        // Only where it is valid: in on ALLOW of a mission with one window (M510, M511).
        signedZtt: fc.boolean(),
        deny: fc.option(fc.uniqueArray(nameArb, { maxLength: 2 }), { nil: undefined }),
      }),
      { minLength: 3, maxLength: 3 },
    ),
  )
  .map(([zone, names, bodies]) => {
    const literal = (value: number): NumberLiteral => ({ kind: "NumberLiteral", value, raw: String(value), range });
    const directives: Directive[] = [{ kind: "VersionDirective", version: { raw: "v4.6.2", major: 4, minor: 6, patch: 2 }, range }];
    if (zone !== undefined) directives.push({ kind: "AnchorDirective", code: identifier(`Z${zone}`), zone, timeZone: null, range });
    const missions = names.map((name, i): Mission => {
      const body = bodies[i]!;
      const items: MissionItem[] = body.spans.map(([before, after]) => ({
        kind: "PhaseRequirement",
        start: literal(((body.sharedPoint - before + 360_000) % 360_000) / 1000),
        end: literal(((body.sharedPoint + after) % 360_000) / 1000),
        range,
      }));
      if (body.carbon) items.push({ kind: "CarbonRequirement", operator: body.carbon[0], threshold: literal(body.carbon[1] / 1000), range });
      if (body.hsBloch) items.push({ kind: "HsBlochRequirement", operator: body.hsBloch[0], threshold: literal(body.hsBloch[1] / 1000), range });
      const steps = (tasks: string[], anchor: boolean, signed: boolean): Statement[] => [
        ...tasks.map((task): Statement => ({ kind: "ExecuteStatement", task: identifier(task), range })),
        ...(anchor
          ? [
              anchorStatement([
                ...(signed ? [{ kind: "SignedZtt", range } as const] : []),
                ...(body.quorum === null ? [] : [{ kind: "Quorum", value: literal(body.quorum), range } as const]),
              ]),
            ]
          : []),
      ];
      items.push({ kind: "Handler", verdict: "ALLOW", body: steps(body.allow, body.anchorOnAllow, body.signedZtt && body.spans.length === 1), range });
      if (body.deny) items.push({ kind: "Handler", verdict: "DENY", body: steps(body.deny, true, false), range });
      return { kind: "Mission", name: identifier(name), items, range };
    });
    return { kind: "MissionFile", filename: "<input>", directives, missions, comments: [], range };
  });
