import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCheckpoint, parseNote } from "@temporal/agent-sdk";
import type { LatestCheckpoint } from "../src/add-checkpoint.js";
import { FileStateStore } from "../src/state-store.js";
import { TestLog } from "./test-log.js";

describe("FileStateStore", () => {
  let directory: string;
  let log: TestLog;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "witness-state-"));
    log = new TestLog("example.com/log").append(5);
  });

  afterEach(() => rm(directory, { recursive: true, force: true }));

  const latestOf = async (size: number): Promise<LatestCheckpoint> => {
    const note = await log.checkpoint(size);
    return { size, rootHash: parseCheckpoint(parseNote(note).text).root_hash, note };
  };

  it("keeps the latest checkpoint across a reopen, in a file that holds only whole records", async () => {
    const store = await FileStateStore.open(directory);
    const latest = await latestOf(5);
    await store.update(log.origin, async (current) => ({ result: current, next: latest }));
    await store.close();
    const reopened = await FileStateStore.open(directory);
    expect(await reopened.update(log.origin, async (current) => ({ result: current }))).toEqual(latest);
    await reopened.close();
    const files = await readdir(join(directory, "logs"));
    expect(files).toHaveLength(1);
    expect(JSON.parse(await readFile(join(directory, "logs", files[0]!), "utf8"))).toMatchObject({ origin: log.origin, size: 5 });
  });

  it("runs one update per origin at a time, in call order", async () => {
    const store = await FileStateStore.open(directory);
    const seen: (number | undefined)[] = [];
    await Promise.all(
      [1, 2, 3, 4, 5].map((size) =>
        store.update(log.origin, async (current) => {
          seen.push(current?.size);
          await new Promise((resolve) => setTimeout(resolve, 5));
          return { result: undefined, next: await latestOf(size) };
        }),
      ),
    );
    expect(seen).toEqual([undefined, 1, 2, 3, 4]);
    await store.close();
  });

  it("close waits for an update in flight before it releases the lock", async () => {
    const store = await FileStateStore.open(directory);
    const latest = await latestOf(5);
    const update = store.update(log.origin, async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { result: undefined, next: latest };
    });
    await store.close();
    // Persisted before the lock was released: the next holder reads it.
    const reopened = await FileStateStore.open(directory, { lockWaitMs: 0 });
    expect(await reopened.update(log.origin, async (current) => ({ result: current }))).toEqual(latest);
    await update;
    await reopened.close();
  });

  it("refuses a state file that does not agree with its own note, and tells to restore it rather than delete it", async () => {
    const store = await FileStateStore.open(directory);
    await store.update(log.origin, async () => ({ result: undefined, next: await latestOf(3) }));
    await store.close();
    const [file] = await readdir(join(directory, "logs"));
    const path = join(directory, "logs", file!);
    const record = JSON.parse(await readFile(path, "utf8"));
    await writeFile(path, JSON.stringify({ ...record, size: 2 }));
    const reopened = await FileStateStore.open(directory);
    await expect(reopened.update(log.origin, async (current) => ({ result: current }))).rejects.toMatchObject({
      code: "WITNESS_STATE_FAILED",
      message: expect.stringContaining("restore it from a backup"),
    });
    await reopened.close();
  });

  it("keeps a second witness off a state directory in use", async () => {
    const store = await FileStateStore.open(directory);
    const refusal = await FileStateStore.open(directory, { lockWaitMs: 0 }).catch((error: unknown) => error);
    // Words for the operator (who holds it, what to do), not the SDK's advice to pass a larger waitMs to acquireLock.
    expect(refusal).toMatchObject({ code: "WITNESS_STATE_FAILED", message: expect.stringContaining(`another temporal-witness (process ${process.pid} on host`) });
    expect((refusal as Error).message).toContain('"state_dir"');
    expect((refusal as Error).message).not.toContain("acquireLock");
    await store.close();
    const next = await FileStateStore.open(directory, { lockWaitMs: 0 });
    await next.close();
  });
});
