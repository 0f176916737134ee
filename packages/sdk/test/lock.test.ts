import { readdir, readFile, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HomeLockedError } from "../src/node/index.js";
import { acquireLock, type HomeLock } from "../src/node/lock.js";
import { tempDir } from "./helpers.js";
import { bundled, canUnsharePid, exitedPid, lockRecord, startChild, startWorker } from "./lock-processes.js";

const SPAWN_TIMEOUT = { timeout: 60_000 };

async function lockPathIn(): Promise<string> {
  return join(await tempDir(), "lock");
}

/** Marks the file's heartbeat `ageMs` old. */
async function age(path: string, ageMs: number): Promise<void> {
  const then = new Date(Date.now() - ageMs);
  await utimes(path, then, then);
}

async function rejection(promise: Promise<unknown>): Promise<HomeLockedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HomeLockedError);
  return error as HomeLockedError;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes over a lock whose holder died without releasing; only the heartbeat can free it, so the takeover waits at least `minWaitMs` for the last beat to age past `staleMs`. */
async function takeOverAfterHeartbeat(path: string, opts: { waitMs: number; staleMs: number; minWaitMs: number }): Promise<void> {
  const started = performance.now();
  const lock = await acquireLock(path, { waitMs: opts.waitMs, staleMs: opts.staleMs });
  expect(performance.now() - started).toBeGreaterThanOrEqual(opts.minWaitMs);
  await lock.release();
}

describe("acquireLock across processes", () => {
  it("waits for a holder in another process and gets the lock once it releases", SPAWN_TIMEOUT, async () => {
    const path = await lockPathIn();
    const holder = await startChild(["hold", path]);
    expect(await holder.next()).toMatchObject({ event: "held", pid: holder.pid });
    const events: string[] = [];
    const acquiring = acquireLock(path).then((lock) => {
      events.push("acquired");
      return lock;
    });
    await delay(300);
    expect(events).toEqual([]);
    holder.send("release");
    expect(await holder.next()).toEqual({ event: "released" });
    events.push("released");
    const lock = await acquiring;
    // "released" is recorded when the child's line arrives, which may be after our poll saw the lock free.
    expect(events.sort()).toEqual(["acquired", "released"]);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ pid: process.pid, token: lock.token });
    await lock.release();
    expect(await holder.exited).toBe(0);
  });

  it("fails after a short waitMs with HOME_LOCKED naming the holder's pid, host and since when, and how to wait longer", SPAWN_TIMEOUT, async () => {
    const path = await lockPathIn();
    const before = Date.now();
    const holder = await startChild(["hold", path]);
    await holder.next();
    const started = performance.now();
    const error = await rejection(acquireLock(path, { waitMs: 250 }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    expect(error).toMatchObject({ code: "HOME_LOCKED", lockPath: path, pid: holder.pid, waited_ms: 250, lost: false });
    expect(error.holder).toMatchObject({ pid: holder.pid, host: hostname() });
    expect(error.holder?.since_unix_ms).toBeGreaterThanOrEqual(before);
    expect(error.holder?.since_unix_ms).toBeLessThanOrEqual(Date.now());
    expect(error.message).toContain(`process ${holder.pid} on host ${JSON.stringify(hostname())} since ${new Date(error.holder?.since_unix_ms as number).toISOString()}`);
    expect(error.message).toContain("pass a larger waitMs");
    holder.send("release");
    await holder.exited;
  });

  it("takes over at once the lock of a process that exited without releasing it", SPAWN_TIMEOUT, async () => {
    const path = await lockPathIn();
    const holder = await startChild(["hold", path]);
    const { token } = await holder.next();
    holder.send("exit");
    expect(await holder.exited).toBe(0);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ token, pid: holder.pid });
    // The owner ran in this boot and pid namespace, so its pid decides: no need to wait for the heartbeat to age.
    const lock = await acquireLock(path, { waitMs: 0 });
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ token: lock.token, pid: process.pid });
    await lock.release();
  });

  it("takes over at once a lock whose pid now runs another process (started at another time)", async () => {
    const path = await lockPathIn();
    await writeFile(path, lockRecord(process.ppid, { start_ticks: "1" }));
    const lock = await acquireLock(path, { waitMs: 0 });
    await lock.release();
  });

  it("never takes over the lock of a live owner in this pid namespace, even one stopped with a heartbeat older than staleMs", SPAWN_TIMEOUT, async () => {
    const path = await lockPathIn();
    const holder = await startChild(["hold", path]);
    await holder.next();
    // A stopped holder would write when resumed, so it keeps the lock although its heartbeat has stopped.
    process.kill(holder.pid, "SIGSTOP");
    try {
      await age(path, 60_000);
      expect(await rejection(acquireLock(path, { waitMs: 2_500, staleMs: 2_000 }))).toMatchObject({ pid: holder.pid });
    } finally {
      process.kill(holder.pid, "SIGCONT");
    }
    holder.send("release");
    expect(await holder.exited).toBe(0);
  });

  it.each([
    ["another pid namespace", { pid_ns: "4026530000" }],
    ["another boot (or host)", { boot_id: "00000000-0000-4000-8000-000000000000" }],
    ["an owner that recorded neither", { boot_id: undefined, pid_ns: undefined }],
  ])("leaves a lock from %s to its heartbeat: kept while fresh although its pid is free here, taken over once older than staleMs", async (_, fields) => {
    const path = await lockPathIn();
    const pid = exitedPid();
    await writeFile(path, lockRecord(pid, fields));
    expect(await rejection(acquireLock(path, { waitMs: 200 }))).toMatchObject({ pid });
    await age(path, 6_000);
    expect(await rejection(acquireLock(path, { waitMs: 0, staleMs: 10_000 }))).toMatchObject({ pid });
    const lock = await acquireLock(path, { waitMs: 0 });
    await lock.release();
  });

  it("judges a lock file naming no owner (an older version's pid-only lock, or garbage) by its age alone", async () => {
    const path = await lockPathIn();
    await writeFile(path, `${exitedPid()}\n`);
    const error = await rejection(acquireLock(path, { waitMs: 100 }));
    expect(error.holder).toBeUndefined();
    expect(error.message).toContain("a holder that the lock file does not name");
    await age(path, 6_000);
    await (await acquireLock(path, { waitMs: 0 })).release();
  });

  const unshare = canUnsharePid();
  it.skipIf(!unshare)(
    `keeps the lock of a live holder in another pid namespace by its heartbeat, and takes it over once the holder is killed${unshare ? "" : " (skipped: unshare --pid --fork --mount-proc is not available here)"}`,
    SPAWN_TIMEOUT,
    async () => {
      const path = await lockPathIn();
      const holder = await startChild(["hold", path], { newPidNamespace: true });
      expect(await holder.next()).toMatchObject({ event: "held", pid: 1 });
      // Twice staleMs: only a heartbeat that keeps beating keeps this lock.
      const error = await rejection(acquireLock(path, { waitMs: 6_000, staleMs: 3_000 }));
      expect(error).toMatchObject({ pid: 1 });
      holder.kill();
      await holder.exited;
      // The dead holder's pid means nothing here, so the takeover waits for its last beat (at most 1 s old) to age past staleMs.
      await takeOverAfterHeartbeat(path, { waitMs: 15_000, staleMs: 3_000, minWaitMs: 1_900 });
    },
  );
});

describe("acquireLock within one process", () => {
  it("queues acquisitions of the same lock, by any path to its directory, in call order", async () => {
    const path = await lockPathIn();
    const alias = join(await tempDir(), "alias");
    await symlink(join(path, ".."), alias);
    const first = await acquireLock(path);
    const order: string[] = [];
    let inside = 0;
    const waiters = ["a", "b", "c", "d", "e"].map((name, i) =>
      acquireLock(i % 2 === 0 ? path : join(alias, "lock")).then(async (lock) => {
        inside++;
        order.push(name);
        expect(inside).toBe(1);
        await delay(5);
        inside--;
        await lock.release();
      }),
    );
    await delay(100);
    expect(order).toEqual([]);
    await first.release();
    await Promise.all(waiters);
    expect(order).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("keeps holdings exclusive and grants them in call order, whatever the mix of holds and waits (property)", async () => {
    const path = await lockPathIn();
    const alias = join(await tempDir(), "alias");
    await symlink(join(path, ".."), alias);
    const plan = fc.array(fc.record({ holdMs: fc.integer({ min: 0, max: 3 }), waitMs: fc.constantFrom(0, 2, 10_000), viaAlias: fc.boolean() }), { minLength: 1, maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(plan, async (steps) => {
        let inside = 0;
        let overlapped = false;
        const granted: number[] = [];
        const outcomes = await Promise.allSettled(
          steps.map(async ({ holdMs, waitMs, viaAlias }, index) => {
            const lock = await acquireLock(viaAlias ? join(alias, "lock") : path, { waitMs });
            overlapped ||= ++inside > 1;
            granted.push(index);
            await delay(holdMs);
            inside--;
            await lock.release();
          }),
        );
        expect(overlapped).toBe(false);
        for (const outcome of outcomes) if (outcome.status === "rejected") expect(outcome.reason).toBeInstanceOf(HomeLockedError);
        // Those that waited long enough all got the lock.
        steps.forEach((step, index) => step.waitMs === 10_000 && expect(outcomes[index]?.status).toBe("fulfilled"));
        expect(granted).toEqual([...granted].sort((a, b) => a - b));
        expect(await readdir(join(path, ".."))).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  it("is kept from a second copy of the lock module in this thread (a bundled and an installed SDK)", async () => {
    const path = await lockPathIn();
    const copy = (await import(await bundled("../src/node/lock.ts"))) as typeof import("../src/node/lock.js");
    expect(copy.acquireLock).not.toBe(acquireLock);
    const lock = await acquireLock(path);
    // The copies share no queue, so the copy polls the file; it must see a live holding, not one this thread abandoned.
    expect(await copy.acquireLock(path, { waitMs: 200 }).catch((e: unknown) => e)).toMatchObject({ code: "HOME_LOCKED", pid: process.pid });
    await lock.release();
    await (await copy.acquireLock(path, { waitMs: 0 })).release();
  });

  it("fails a queued acquisition after its waitMs, naming this process, and serves the next one", async () => {
    const path = await lockPathIn();
    const first = await acquireLock(path);
    const timedOut = acquireLock(path, { waitMs: 100 });
    const next = acquireLock(path);
    const error = await rejection(timedOut);
    expect(error).toMatchObject({ pid: process.pid, waited_ms: 100 });
    expect(error.message).toContain("(this process)");
    await first.release();
    await (await next).release();
  });

  it("rejects with the signal's reason when aborted, while queued or before, and leaves the queue working", async () => {
    const path = await lockPathIn();
    const first = await acquireLock(path);
    const controller = new AbortController();
    const aborted = acquireLock(path, { signal: controller.signal });
    const next = acquireLock(path);
    const reason = new Error("no longer needed");
    controller.abort(reason);
    await expect(aborted).rejects.toBe(reason);
    await expect(acquireLock(path, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await first.release();
    await (await next).release();
  });

  it("aborts a wait on another process's lock", SPAWN_TIMEOUT, async () => {
    const path = await lockPathIn();
    const holder = await startChild(["hold", path]);
    await holder.next();
    const reason = new Error("stop");
    const waiting = acquireLock(path, { signal: AbortSignal.timeout(200) }).catch((e: unknown) => e);
    expect(await waiting).toMatchObject({ name: "TimeoutError" });
    await expect(acquireLock(path, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    holder.send("release");
    await holder.exited;
    await (await acquireLock(path, { waitMs: 5_000 })).release();
    expect(await readdir(join(path, ".."))).toEqual([]);
  });
});

describe("acquireLock in worker threads", () => {
  it("keeps a worker thread's holding from the main thread, and takes it over by the heartbeat once the worker ended without releasing", SPAWN_TIMEOUT, async () => {
    const path = await lockPathIn();
    const worker = await startWorker(["hold", path]);
    const { token } = await worker.next();
    // Same pid as ours, but another thread: its tokens are not in this thread's set, so the heartbeat decides.
    expect(await rejection(acquireLock(path, { waitMs: 300 }))).toMatchObject({ pid: process.pid });
    worker.send("release");
    expect(await worker.next()).toEqual({ event: "released" });
    await worker.exited;
    await (await acquireLock(path, { waitMs: 0 })).release();

    const abandoning = await startWorker(["hold", path]);
    await abandoning.next();
    abandoning.send("exit");
    await abandoning.exited;
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ pid: process.pid, thread_id: expect.any(Number) });
    expect(JSON.parse(await readFile(path, "utf8")).token).not.toBe(token);
    await takeOverAfterHeartbeat(path, { waitMs: 10_000, staleMs: 2_000, minWaitMs: 900 });
  });
});

describe("a held lock", () => {
  it("is removed on release, once, and leaves nothing else behind", async () => {
    const path = await lockPathIn();
    const lock = await acquireLock(path);
    await lock.assertHeld();
    await Promise.all([lock.release(), lock.release()]);
    await lock.release();
    expect(await readdir(join(path, ".."))).toEqual([]);
    await expect(lock.assertHeld()).rejects.toMatchObject({ code: "HOME_LOCKED", lost: true });
  });

  it("reports through assertHeld when its file was taken over, and release then leaves the new holder's file alone", async () => {
    const path = await lockPathIn();
    const lock: HomeLock = await acquireLock(path);
    const intruder = lockRecord(exitedPid(), { pid_ns: "4026530000" });
    await writeFile(path, intruder);
    const error = (await lock.assertHeld().catch((e: unknown) => e)) as HomeLockedError;
    expect(error).toBeInstanceOf(HomeLockedError);
    expect(error).toMatchObject({ code: "HOME_LOCKED", lost: true, waited_ms: undefined });
    expect(error.message).toContain("no longer holds");
    await lock.release();
    expect(await readFile(path, "utf8")).toBe(intruder);
  });

  it("keeps its heartbeat while held", { timeout: 30_000 }, async () => {
    const path = await lockPathIn();
    const lock = await acquireLock(path);
    await age(path, 60_000);
    await delay(2_500);
    // A beat (every second) has touched it since it was aged by a minute.
    const { mtimeMs } = await stat(path);
    expect(Date.now() - mtimeMs).toBeLessThan(10_000);
    await lock.release();
  });
});

describe("the takeover guard", () => {
  it("is removed when its owner is dead, and a fresh one from an owner that cannot be checked blocks takeovers until older than staleMs", async () => {
    const path = await lockPathIn();
    const guard = `${path}.takeover`;
    await writeFile(path, lockRecord(exitedPid()));
    await writeFile(guard, lockRecord(exitedPid()));
    // The first look removes the dead taker's guard, the next takes over the dead owner's lock.
    await (await acquireLock(path, { waitMs: 1_000 })).release();

    await writeFile(path, lockRecord(exitedPid()));
    await writeFile(guard, lockRecord(exitedPid(), { pid_ns: "4026530000" }));
    expect(await rejection(acquireLock(path, { waitMs: 300 }))).toBeDefined();
    await age(guard, 6_000);
    await (await acquireLock(path, { waitMs: 1_000 })).release();
    expect(await readdir(join(path, ".."))).toEqual([]);
  });
});

describe("acquireLock options", () => {
  it.each([
    [{ waitMs: -1 }, "waitMs"],
    [{ waitMs: 1.5 }, "waitMs"],
    [{ waitMs: Number.NaN }, "waitMs"],
    [{ waitMs: "10" }, "waitMs"],
    [{ waitMs: 2 ** 31 }, "waitMs"],
    [{ staleMs: 1_999 }, "staleMs"],
    [{ signal: "stop" }, "signal"],
    [null, "options must be an object"],
  ])("rejects %o with INVALID_ARGUMENT", async (options, name) => {
    const path = await lockPathIn();
    await expect(acquireLock(path, options as never)).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining(name) });
    expect(await readdir(join(path, ".."))).toEqual([]);
  });
});
