/**
 * A process that takes the lock, spawned by the lock tests (bundled with
 * esbuild first, since Node 20 cannot run TypeScript). Modes:
 *
 *   stress <lockPath> <markerPath> <count> <stopAtUnixMs>
 *     Takes and releases the lock `count` times (or until the wall-clock cap),
 *     proving each holding exclusive by creating `markerPath` with O_EXCL and
 *     removing it before release. Prints one JSON line: pid, acquisitions,
 *     double holds seen and [enter, exit] intervals in CLOCK_MONOTONIC ns
 *     (comparable across processes on one machine).
 *   abandon <lockPath> <markerPath>
 *     Takes the lock once, proves it exclusive as stress does, prints the same
 *     JSON line and exits without releasing, leaving a dead owner's lock.
 *   hold <lockPath> [staleMs]
 *     Takes the lock, prints {"event":"held",...}, then obeys stdin lines:
 *     "release" (release, print {"event":"released"}, exit) or "exit" (exit
 *     without releasing, leaving the lock file behind).
 */
import { open, unlink } from "node:fs/promises";
import { createInterface } from "node:readline";
import { acquireLock } from "../src/node/lock.js";

const [mode, lockPath, ...rest] = process.argv.slice(2);
if (lockPath === undefined) throw new Error("usage: lock-child stress|hold <lockPath> ...");

if (mode === "stress") await stress(lockPath, rest);
else if (mode === "abandon") await stress(lockPath, [rest[0] as string, "1", String(Number.MAX_SAFE_INTEGER)], { release: false });
else if (mode === "hold") await hold(lockPath, rest);
else throw new Error(`unknown mode ${mode}`);

async function stress(path: string, [markerPath, count, stopAt]: string[], { release = true } = {}): Promise<void> {
  if (markerPath === undefined || count === undefined || stopAt === undefined) throw new Error("stress needs markerPath count stopAtUnixMs");
  let doubles = 0;
  const intervals: [string, string][] = [];
  for (let i = 0; i < Number(count) && Date.now() < Number(stopAt); i++) {
    const lock = await acquireLock(path, { waitMs: 60_000 });
    const enter = process.hrtime.bigint();
    try {
      const marker = await open(markerPath, "wx");
      await marker.close();
      // Stay inside a little longer now and then, so that holdings of other processes would overlap if they could.
      if (i % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
      await unlink(markerPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      doubles++;
    }
    intervals.push([String(enter), String(process.hrtime.bigint())]);
    if (release) await lock.release();
  }
  process.stdout.write(`${JSON.stringify({ pid: process.pid, acquisitions: intervals.length, doubles, intervals })}\n`);
  // Ends with the lock file still naming this process, as a crash would.
  if (!release) process.exit(0);
}

async function hold(path: string, [staleMs]: string[]): Promise<void> {
  const lock = await acquireLock(path, { waitMs: 30_000, ...(staleMs === undefined ? {} : { staleMs: Number(staleMs) }) });
  process.stdout.write(`${JSON.stringify({ event: "held", pid: process.pid, token: lock.token })}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === "exit") process.exit(0);
    if (line === "release") {
      await lock.release();
      process.stdout.write(`${JSON.stringify({ event: "released" })}\n`);
      process.exit(0);
    }
  }
  process.exit(0);
}
