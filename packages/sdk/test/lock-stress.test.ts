import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireLock } from "../src/node/lock.js";
import { tempDir } from "./helpers.js";
import { startChild } from "./lock-processes.js";

const PROCESSES = 8;
const PER_PROCESS = 400;
/** The children stop at this wall-clock cap even if they have not finished their count, so the test stays far from its timeout on a loaded machine. */
const CAP_MS = 30_000;
const MAX_ABANDONERS = 30;

interface StressReport {
  readonly pid: number;
  readonly acquisitions: number;
  readonly doubles: number;
  readonly intervals: [string, string][];
}

describe("the lock under contention from many processes", () => {
  it(`is never held twice: ${PROCESSES} processes x ${PER_PROCESS} acquisitions, while processes that die holding it force takeovers`, { timeout: 120_000 }, async () => {
    const dir = await tempDir();
    const lockPath = join(dir, "lock");
    const marker = join(dir, "inside");
    const stopAt = Date.now() + CAP_MS;
    const children = await Promise.all(Array.from({ length: PROCESSES }, () => startChild(["stress", lockPath, marker, String(PER_PROCESS), String(stopAt)])));
    const reports = children.map((child) => child.next() as Promise<unknown> as Promise<StressReport>);
    let running = true;
    const stop = () => (running = false);
    Promise.all(reports).then(stop, stop);
    // One at a time, each taking the lock among the contenders and exiting while it holds it, so that one of them must take over.
    const abandoned: StressReport[] = [];
    while (running && abandoned.length < MAX_ABANDONERS) {
      const abandoner = await startChild(["abandon", lockPath, marker]);
      abandoned.push((await abandoner.next()) as unknown as StressReport);
      expect(await abandoner.exited).toBe(0);
    }
    const all = [...(await Promise.all(reports)), ...abandoned];
    expect(await Promise.all(children.map((child) => child.exited))).toEqual(children.map(() => 0));

    expect(all.map((report) => report.doubles)).toEqual(all.map(() => 0));
    expect(abandoned.length).toBeGreaterThan(0);
    // Every process made progress; unless the cap cut the run short, each did its whole count.
    for (const report of all) expect(report.acquisitions).toBeGreaterThan(Date.now() < stopAt ? (abandoned.includes(report) ? 0 : PER_PROCESS - 1) : 0);
    // The holdings, as each process timed them on the machine-wide monotonic clock, never overlap.
    const intervals = all.flatMap((report) => report.intervals.map(([enter, exit]) => [BigInt(enter), BigInt(exit)] as const));
    intervals.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const overlaps = intervals.filter((interval, i) => i > 0 && interval[0] < (intervals[i - 1] as (typeof intervals)[number])[1]);
    expect(overlaps).toEqual([]);
    // Nothing is left behind but, if an abandoner held it last, its lock — which is taken over at once.
    expect((await readdir(dir)).filter((name) => name !== "lock")).toEqual([]);
    await (await acquireLock(lockPath, { waitMs: 0 })).release();
    expect(await readdir(dir)).toEqual([]);
    console.log(`lock stress: ${intervals.length} acquisitions by ${PROCESSES} processes and ${abandoned.length} that died holding the lock`);
  });
});
