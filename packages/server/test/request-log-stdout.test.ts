import type { RequestOutcome } from "@temporal/agent-sdk/service";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RequestLog } from "../src/request-log.js";

const outcome: RequestOutcome = { route: "/core/state", status: 200, durationMs: 1.5, tier: "public", keyId: undefined, rateLimited: undefined, errorCode: undefined, audit: undefined };

/** What the log handed to process.stdout, as bytes in order (the real write is replaced, so the test's output stays clean). */
let written: Buffer[] = [];
beforeEach(() => {
  written = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    written.push(Buffer.from(chunk));
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

const requestIds = () =>
  Buffer.concat(written)
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => (JSON.parse(line) as { req_id: string }).req_id);

describe("the request log on stdout", () => {
  it("batches lines until close(), which writes them all, multi-byte UTF-8 byte for byte", () => {
    const log = new RequestLog({ level: "info" });
    const ids = ["café-é", "rocket-🚀", "plain"];
    for (const id of ids) log.reply(id, "GET", outcome);
    expect(written).toEqual([]);
    log.close();
    expect(written).toHaveLength(1);
    expect(requestIds()).toEqual(ids);
    // The UTF-8 bytes of é (2) and 🚀 (4) themselves, not escapes or replacement characters.
    for (const id of ["café-é", "rocket-🚀"]) expect(Buffer.concat(written).includes(Buffer.from(`"req_id":"${id}"`, "utf8"))).toBe(true);
  });

  it("writes a line too long to batch after the lines batched before it", () => {
    const log = new RequestLog({ level: "info" });
    const long = "é".repeat(30_000);
    log.reply("first", "GET", outcome);
    log.reply("second-🙂", "GET", outcome);
    log.reply(long, "GET", outcome);
    expect(requestIds()).toEqual(["first", "second-🙂", long]);
    log.reply("after", "GET", outcome);
    log.close();
    expect(requestIds()).toEqual(["first", "second-🙂", long, "after"]);
  });

  it("gives a write that keeps its bytes (stdout still busy) a batch of its own, so later lines do not overwrite them", () => {
    const kept: Uint8Array[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      kept.push(chunk as Uint8Array);
      return true;
    });
    const busy = vi.spyOn(process.stdout, "writableLength", "get").mockReturnValue(1);
    const log = new RequestLog({ level: "info" });
    // Lines of about 1.2 KB: a 64 KiB batch is written about every 50 of them.
    const ids = Array.from({ length: 150 }, (_, i) => `${i}-${"x".repeat(1000)}`);
    for (const id of ids) log.reply(id, "GET", outcome);
    log.close();
    expect(kept.length).toBeGreaterThan(2);
    written = kept.map((chunk) => Buffer.from(chunk));
    expect(requestIds()).toEqual(ids);
    // Once writes finish at once, the batch is filled again, and what was written is still what was logged.
    busy.mockReturnValue(0);
    const copies: Buffer[] = [];
    const buffers = new Set<ArrayBufferLike>();
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      copies.push(Buffer.from(chunk));
      buffers.add((chunk as Uint8Array).buffer);
      return true;
    });
    const again = new RequestLog({ level: "info" });
    for (const id of ids) again.reply(id, "GET", outcome);
    again.close();
    written = copies;
    expect(requestIds()).toEqual(ids);
    expect(copies.length).toBeGreaterThan(2);
    expect(buffers.size).toBe(1);
  });

  it("flushes at the process's exit until it is closed, and then stops listening", () => {
    const before = process.listenerCount("exit");
    const log = new RequestLog({ level: "info" });
    expect(process.listenerCount("exit")).toBe(before + 1);
    log.reply("pending", "GET", outcome);
    const listener = process.listeners("exit").at(-1)!;
    listener.call(process, 0);
    expect(requestIds()).toEqual(["pending"]);
    log.close();
    expect(process.listenerCount("exit")).toBe(before);
  });
});
