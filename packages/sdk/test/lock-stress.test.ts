import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "./helpers.js";
import { startChild } from "./lock-processes.js";

const PROCESSES = 8;
const PER_PROCESS = 400;
/** The children stop at this wall-clock cap even if they have not finished their count, so the test stays far from its timeout on a loaded machine. */
const CAP_MS = 40_000;

interface StressReport {
  readonly pid: number;
  readonly acquisitions: number;
  readonly doubles: number;
  readonly intervals: [string, string][];
}

describe("the lock under contention from many processes", () => {
  it(`is never held twice: ${PROCESSES} processes x ${PER_PROCESS} acquisitions`, { timeout: 120_000 }, async () => {
    const dir = await tempDir();
    const lockPath = join(dir, "lock");
    const marker = join(dir, "inside");
    const stopAt = Date.now() + CAP_MS;
    const children = await Promise.all(Array.from({ length: PROCESSES }, () => startChild(["stress", lockPath, marker, String(PER_PROCESS), String(stopAt)])));
    const reports = (await Promise.all(children.map((child) => child.next()))) as unknown as StressReport[];
    expect(await Promise.all(children.map((child) => child.exited))).toEqual(children.map(() => 0));

    expect(reports.map((report) => report.doubles)).toEqual(reports.map(() => 0));
    // Every process made progress; unless the cap cut the run short, each did its whole count.
    for (const report of reports) expect(report.acquisitions).toBeGreaterThan(Date.now() < stopAt ? PER_PROCESS - 1 : 0);
    // The holdings, as each process timed them on the machine-wide monotonic clock, never overlap.
    const intervals = reports.flatMap((report) => report.intervals.map(([enter, exit]) => [BigInt(enter), BigInt(exit), report.pid] as const));
    intervals.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    let overlaps = 0;
    for (let i = 1; i < intervals.length; i++) if ((intervals[i] as (typeof intervals)[number])[0] < (intervals[i - 1] as (typeof intervals)[number])[1]) overlaps++;
    expect(overlaps).toBe(0);
    expect(intervals.length).toBe(reports.reduce((sum, report) => sum + report.acquisitions, 0));
    console.log(`lock stress: ${intervals.length} acquisitions by ${PROCESSES} processes`);
  });
});
