import { TIERS, type RequestOutcome } from "@temporal/agent-sdk/service";
import fc from "fast-check";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { IncomingMessage } from "node:http";
import { RequestLog, directLinesMatchPino, millisecondsText, requestIdOf } from "../src/request-log.js";

/** The lines a destination receives. */
function collector(): { lines: string[]; write(line: string): void } {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
}

/** The time field differs between two lines written a moment apart; everything else must not. */
const withoutTime = (line: string) => line.replace(/,"time":\d+/, ',"time":0');

/** The line pino's own `info` writes for this reply, as the request log did before it wrote its fields itself. */
function pinoLine(requestId: string, method: string, outcome: RequestOutcome): string {
  const out = collector();
  const child = pino({ level: "info", base: { pid: process.pid } }, out).child({
    method: method === "" ? undefined : method,
    route: outcome.route ?? null,
    tier: outcome.tier,
    key_id: outcome.keyId,
  });
  const durationMs = Math.round(outcome.durationMs * 1000) / 1000;
  child.info({ req_id: requestId, status: outcome.status, duration_ms: durationMs, code: outcome.errorCode, rate_limited: outcome.rateLimited, audit: outcome.audit }, "request");
  return out.lines[0] as string;
}

// Strings with what JSON must escape: quotes, backslashes, control characters, non-ASCII.
const awkward = fc.oneof(fc.string(), fc.constantFrom('a"b', "a\\b", "tab\there", "line\nbreak", "é€😀", "\u0000"));
const outcome: fc.Arbitrary<RequestOutcome> = fc.record({
  route: fc.option(fc.oneof(fc.constantFrom("/allow", "/core/state"), awkward), { nil: undefined }),
  status: fc.integer({ min: 100, max: 599 }),
  durationMs: fc.double({ min: 0, max: 1e6, noNaN: true }),
  tier: fc.constantFrom(...TIERS),
  // A key id is never empty (the log reads "" as no key).
  keyId: fc.option(
    fc.oneof(
      fc.stringMatching(/^[0-9a-f]{12}$/),
      awkward.filter((id) => id !== ""),
    ),
    { nil: undefined },
  ),
  rateLimited: fc.option(fc.constantFrom("per_ip", "per_key" as const), { nil: undefined }),
  errorCode: fc.option(fc.oneof(fc.constantFrom("RATE_LIMITED", "UNAUTHORIZED"), awkward), { nil: undefined }),
  audit: fc.option(fc.dictionary(fc.string(), fc.oneof(awkward, fc.integer(), fc.array(fc.integer()))), { nil: undefined }),
});
// What requestIdOf lets through: visible ASCII other than `"` and `\`.
const requestId = fc.stringMatching(/^[!#-[\]-~]{1,128}$/);
const method = fc.constantFrom("GET", "POST", "OPTIONS", "");

describe("the request log's lines", () => {
  it("are written directly with the installed pino, and byte for byte the lines pino's own info() writes for the same reply, time apart", () => {
    // Otherwise RequestLog would write through pino's info(), which is what this test compares with.
    expect(directLinesMatchPino()).toBe(true);
    fc.assert(
      fc.property(requestId, method, outcome, (id, verb, reply) => {
        const out = collector();
        const log = new RequestLog({ level: "info", destination: out });
        log.reply(id, verb === "" ? undefined : verb, reply);
        expect(out.lines).toHaveLength(1);
        const line = out.lines[0] as string;
        expect(withoutTime(line)).toBe(withoutTime(pinoLine(id, verb, reply)));
        expect(JSON.parse(line)).toMatchObject({ level: 30, req_id: id, status: reply.status, msg: "request" });
      }),
      { numRuns: 500 },
    );
  });

  it("write a duration's whole microseconds as JavaScript writes the milliseconds", () => {
    const micros = fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 2 ** 50 - 100_000, max: 2 ** 50 }), fc.maxSafeNat());
    fc.assert(
      fc.property(micros, (n) => {
        expect(millisecondsText(n)).toBe(String(n / 1000));
      }),
      { numRuns: 2000 },
    );
    for (const n of [0, 1, 10, 100, 999, 1000, 1001, 1010, 1100, 123_450, 2 ** 53, -1, -1500]) expect(millisecondsText(n)).toBe(String(n / 1000));
    for (const n of [Number.NaN, Infinity, -Infinity]) expect(millisecondsText(n)).toBe("null");
  });

  it("carry the time of writing, in Unix ms", () => {
    const out = collector();
    const before = Date.now();
    new RequestLog({ level: "info", destination: out }).reply("t-1", "GET", {
      route: "/allow",
      status: 200,
      durationMs: 0.5,
      tier: "public",
      keyId: undefined,
      rateLimited: undefined,
      errorCode: undefined,
    });
    const { time } = JSON.parse(out.lines[0] as string) as { time: number };
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
  });

  it("go through pino's own info() to a destination that needs its metadata (pino.multistream)", () => {
    const out = collector();
    const log = new RequestLog({ level: "info", destination: pino.multistream([{ level: "info", stream: out }]) });
    const reply: RequestOutcome = { route: "/allow", status: 429, durationMs: 1.25, tier: "developer", keyId: "abc", rateLimited: "per_key", errorCode: "RATE_LIMITED" };
    log.reply("m-1", "POST", reply);
    expect(out.lines.map(withoutTime)).toEqual([withoutTime(pinoLine("m-1", "POST", reply))]);
  });
});

describe("generated request ids", () => {
  it("are version 8 UUIDs of one random prefix and a counter that goes up by one, across the counter's 4,096-id steps", () => {
    const noId = { headers: {} } as IncomingMessage;
    const ids = Array.from({ length: 10_000 }, () => requestIdOf(noId));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids.map((id) => id.slice(0, 24))).size).toBe(1);
    const counters = ids.map((id) => Number.parseInt(id.slice(24), 16));
    counters.forEach((counter, i) => i > 0 && expect(counter).toBe((counters[i - 1] as number) + 1));
  });
});
