import { execFileSync } from "node:child_process";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileTooLargeError, errnoCode, readSmallFile } from "../src/node/index.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "read-small-file-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What readSmallFile rejected with, or undefined when it read the file. */
async function refusal(path: string, limitBytes: number): Promise<unknown> {
  try {
    await readSmallFile(path, limitBytes);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe("readSmallFile", () => {
  it("reads a regular file of up to the limit byte for byte, and refuses one byte more", async () => {
    const path = join(dir, "file");
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200_000 }), fc.integer({ min: 0, max: 200_000 }), async (bytes, limit) => {
        await writeFile(path, bytes);
        if (bytes.length <= limit) expect(new Uint8Array(await readSmallFile(path, limit))).toEqual(bytes);
        else expect(await refusal(path, limit)).toBeInstanceOf(FileTooLargeError);
      }),
      { numRuns: 60 },
    );
  });

  it("reads a file of exactly the limit, and refuses one of a byte more, from a regular file and from a pipe", async () => {
    const path = join(dir, "edge");
    await writeFile(path, Buffer.alloc(4096, 1));
    expect((await readSmallFile(path, 4096)).length).toBe(4096);
    expect(await refusal(path, 4095)).toBeInstanceOf(FileTooLargeError);
    if (process.platform !== "linux") return;
    // A pipe has no size to check first: the limit is found while reading.
    const fifo = join(dir, "edge-pipe");
    for (const [bytes, limit, refused] of [
      [100_000, 100_000, false],
      [100_001, 100_000, true],
    ] as const) {
      execFileSync("mkfifo", [fifo]);
      const read = readSmallFile(fifo, limit).then(
        (contents) => contents.length,
        (error: unknown) => error,
      );
      const writer = await open(fifo, "w");
      // The reader stops at the limit and closes: writing past it may meet a closed pipe.
      await writer.write(Buffer.alloc(bytes, 2)).catch(() => undefined);
      await writer.close();
      const result = await read;
      if (refused) expect(result).toBeInstanceOf(FileTooLargeError);
      else expect(result).toBe(bytes);
      await rm(fifo);
    }
  });

  it("names the limit of a file that is too large in words", async () => {
    const path = join(dir, "big");
    await writeFile(path, Buffer.alloc(1_048_577));
    expect(await refusal(path, 1_048_576)).toMatchObject({ limitBytes: 1_048_576, message: "it holds more than 1 MiB: no file of its kind is that large" });
  });

  it.runIf(process.platform === "linux")("stops reading a device at the limit rather than reading it without end", async () => {
    expect(await refusal("/dev/zero", 65_536)).toMatchObject({ message: "it holds more than 64 KiB: no file of its kind is that large" });
  });

  it.runIf(process.platform === "linux")("reads a named pipe to its end, as a shell's <(command) is read", async () => {
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const read = readSmallFile(fifo, 1024);
    const writer = await open(fifo, "w");
    await writer.write('{"from":"a pipe"}');
    await writer.close();
    expect((await read).toString()).toBe('{"from":"a pipe"}');
  });

  it("passes a system call's error on as it is: a folder, a missing file", async () => {
    expect(errnoCode(await refusal(dir, 1024))).toBe("EISDIR");
    expect(errnoCode(await refusal(join(dir, "absent"), 1024))).toBe("ENOENT");
  });
});
