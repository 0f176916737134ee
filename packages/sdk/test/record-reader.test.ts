import { open, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_RECORD_BYTES, frameRecord, isTornTail } from "../src/node/record-frame.js";
import { readRecords, type ReadableFile, type RecordScan } from "../src/node/record-reader.js";
import { tempDir } from "./helpers.js";

const record = (n: number, size: number) => frameRecord(Buffer.from(JSON.stringify({ n, pad: "x".repeat(size) })));

async function scanFile(bytes: Buffer, chunkBytes?: number): Promise<{ offsets: number[]; scan: RecordScan }> {
  const path = join(await tempDir(), "ledger");
  await writeFile(path, bytes);
  const handle = await open(path, "r");
  try {
    const offsets: number[] = [];
    const scan = await readRecords(handle, bytes.length, (r) => void offsets.push(r.offset), chunkBytes);
    return { offsets, scan };
  } finally {
    await handle.close();
  }
}

describe("record reader", () => {
  const records = [record(0, 10), record(1, 3000), record(2, 0), record(3, 700), record(4, 50)];
  const whole = Buffer.concat(records);
  const lastOffset = whole.length - (records[4] as Buffer).length;
  const offsets = records.map((_, i) => Buffer.concat(records.slice(0, i)).length);

  it.each([
    ["whole records", whole, { validLength: whole.length, torn: false }],
    ["a cut last record", whole.subarray(0, whole.length - 7), { validLength: lastOffset, torn: true }],
    ["a damaged middle record", Buffer.concat([...records.slice(0, 2), Buffer.alloc(30), ...records.slice(2)]), { validLength: offsets[2], torn: false }],
  ])("gives the same records and tail for %s whatever the chunk size", async (_label, bytes, expected) => {
    const reference = await scanFile(bytes);
    expect(reference.scan.validLength).toBe(expected.validLength);
    expect(reference.scan.tornTail !== undefined).toBe(expected.torn);
    for (const chunkBytes of [1, 11, 12, 13, 100, 1000, 5000]) {
      expect(await scanFile(bytes, chunkBytes)).toEqual(reference);
    }
  });

  it("reads a ledger larger than 2 GiB in bounded chunks", { timeout: 30_000 }, async () => {
    // A virtual file of 2.25 GiB of whole 1 MiB records followed by half a record, served without being held in memory.
    const unit = record(0, 1024 * 1024 - 40);
    const count = Math.ceil((2.25 * 2 ** 30) / unit.length);
    const tail = Math.floor(unit.length / 2);
    const length = count * unit.length + tail;
    let largestRead = 0;
    const file: ReadableFile = {
      async read(buffer, offset, readLength, position) {
        largestRead = Math.max(largestRead, readLength);
        const end = Math.min(position + readLength, length);
        for (let at = position; at < end;) {
          const within = at % unit.length;
          const copied = unit.copy(buffer, offset + (at - position), within, Math.min(unit.length, within + end - at));
          at += copied;
        }
        return { bytesRead: end - position };
      },
    };
    let seen = 0;
    const scan = await readRecords(file, length, () => void seen++);
    expect(seen).toBe(count);
    expect(scan.validLength).toBe(count * unit.length);
    expect(scan.validLength).toBeGreaterThan(2 ** 31);
    expect(scan.tornTail?.length).toBe(tail);
    expect(largestRead).toBeLessThanOrEqual(8 * 1024 * 1024);
  });
});

describe("torn tail", () => {
  it("is at most one record long", () => {
    expect(isTornTail(Buffer.alloc(MAX_RECORD_BYTES))).toBe(true);
    expect(isTornTail(Buffer.alloc(MAX_RECORD_BYTES + 1))).toBe(false);
  });

  it("is the last record: one whose intact header says it ends before the end of the region is not torn", () => {
    const damaged = record(1, 100);
    damaged[50] = (damaged[50] as number) ^ 1;
    expect(isTornTail(damaged)).toBe(true);
    expect(isTornTail(damaged.subarray(0, 60))).toBe(true);
    expect(isTornTail(Buffer.concat([damaged, Buffer.from([0])]))).toBe(false);
    expect(isTornTail(Buffer.concat([Buffer.alloc(20), record(2, 5)]))).toBe(false);
  });
});
