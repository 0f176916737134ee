import { copyFile, mkdir, open, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { LedgerCorruptError, contextAt, createLocalAuthority, createTsaeRequest, sha256Hex, type AnchorProof, type LocalAuthority } from "../src/index.js";
import { frameRecord, scanRecords } from "../src/node/record-frame.js";
import { steppingClock, tempDir } from "./helpers.js";

const T0 = Date.UTC(2025, 4, 1, 12);
const request = (n: number, zone = 5) =>
  createTsaeRequest(contextAt(T0 + n, { zone }), { scope: "test.recovery.v1", action_hash_hex: sha256Hex(`action ${n}`) });

let root: string;
let pristineLedger: Buffer;
let proofs: AnchorProof[];
let lastOffset: number;
let keyFile: string;

/** A fresh home holding the pristine key and the given ledger bytes. */
async function homeWith(ledger: Buffer, name: string): Promise<string> {
  const home = join(root, name);
  await rm(home, { recursive: true, force: true });
  await mkdir(home, { recursive: true });
  await copyFile(keyFile, join(home, "signing-key.pem"));
  await writeFile(join(home, "clockchain.log"), ledger);
  return home;
}

async function withAuthority<T>(home: string, use: (authority: LocalAuthority) => Promise<T>): Promise<T> {
  const authority = createLocalAuthority({ home, clock: steppingClock(T0 + 1000) });
  try {
    return await use(authority);
  } finally {
    await authority.close();
  }
}

/** Re-frames the ledger after editing the parsed record bodies, so checksums stay valid. */
// Record bodies are edited freely to forge ledgers.
type Bodies = any[];

function rewrite(ledger: Buffer, edit: (bodies: Bodies) => unknown[]): Buffer {
  const bodies: Bodies = scanRecords(ledger).records.map((r) => JSON.parse(r.body.toString("utf8")));
  return Buffer.concat(edit(bodies).map((body) => frameRecord(Buffer.from(typeof body === "string" ? body : JSON.stringify(body)))));
}

async function expectCorrupt(ledger: Buffer, reason: string, offset?: number): Promise<void> {
  const home = await homeWith(ledger, "corrupt");
  const error = await withAuthority(home, (authority) => authority.status()).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LedgerCorruptError);
  expect(error).toMatchObject({ code: "LEDGER_CORRUPT", reason, ...(offset === undefined ? {} : { offset }) });
  expect(await readFile(join(home, "clockchain.log"))).toEqual(ledger);
  expect(await readdir(home)).toEqual(["clockchain.log", "signing-key.pem"]);
}

beforeAll(async () => {
  root = await tempDir();
  const home = join(root, "pristine");
  // Three anchors, one at a time: three records, the second in another tile.
  proofs = await withAuthority(home, async (authority) => {
    const anchored: AnchorProof[] = [];
    for (const [n, zone] of [[1, 5], [2, 6], [3, 5]] as const) anchored.push(await authority.anchor(await authority.issueReceipt(request(n, zone))));
    return anchored;
  });
  keyFile = join(home, "signing-key.pem");
  pristineLedger = await readFile(join(home, "clockchain.log"));
  const records = scanRecords(pristineLedger).records;
  expect(records).toHaveLength(3);
  lastOffset = (records[2] as { offset: number }).offset;
});

describe("ledger recovery", () => {
  it("survives a cut at every byte offset of the last record, keeping every earlier record", async () => {
    for (let cut = lastOffset; cut < pristineLedger.length; cut++) {
      const home = await homeWith(pristineLedger.subarray(0, cut), "cut");
      const status = await withAuthority(home, async (authority) => {
        for (const proof of proofs.slice(0, 2)) expect(await authority.getAnchorProof(proof.receipt_hash)).toEqual(proof);
        expect(await authority.getAnchorProof(proofs[2]?.receipt_hash as string)).toBeUndefined();
        const status = await authority.status();
        if (cut % 97 === 0) {
          // Appending after recovery continues the tile and the chain.
          const next = await authority.anchor(await authority.issueReceipt(request(4)));
          expect(next).toMatchObject({ tile_id: proofs[2]?.tile_id, leaf_index: 1, signed_head: { sequence: 2 } });
        }
        return status;
      });
      const torn = cut - lastOffset;
      expect(status.recovered).toEqual(torn === 0 ? undefined : { offset: lastOffset, bytes: torn, saved_to: expect.stringContaining(".torn-") });
      if (status.recovered !== undefined) expect(await readFile(status.recovered.saved_to)).toEqual(pristineLedger.subarray(lastOffset, cut));
      if (cut % 97 !== 0) expect((await readFile(join(home, "clockchain.log"))).length).toBe(lastOffset);
    }
  });

  it.each([
    ["zeros (size extended, data never written)", Buffer.alloc(700)],
    ["random garbage", Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 151 + 7) % 256))],
    ["a lone header byte", Buffer.from([0x89])],
  ])("truncates a torn tail of %s after the last whole record", async (_label, tail) => {
    const home = await homeWith(Buffer.concat([pristineLedger, tail]), "tail");
    const status = await withAuthority(home, (authority) => authority.status());
    expect(status).toMatchObject({ anchors: 3, recovered: { offset: pristineLedger.length, bytes: tail.length } });
    expect(await readFile(join(home, "clockchain.log"))).toEqual(pristineLedger);
  });

  it("treats a damaged last record as torn (it cannot be told apart from a torn write) and keeps its bytes", async () => {
    const damaged = Buffer.from(pristineLedger);
    damaged[lastOffset + 40] = (damaged[lastOffset + 40] as number) ^ 1;
    const home = await homeWith(damaged, "last");
    const status = await withAuthority(home, (authority) => authority.status());
    expect(status).toMatchObject({ anchors: 2, recovered: { offset: lastOffset } });
    expect(await readFile(status.recovered?.saved_to as string)).toEqual(damaged.subarray(lastOffset));
  });

  it("reports, and never repairs, a flipped bit in any record but the last", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: lastOffset - 1 }), fc.integer({ min: 0, max: 7 }), async (at, bit) => {
        const damaged = Buffer.from(pristineLedger);
        damaged[at] = (damaged[at] as number) ^ (1 << bit);
        const firstBad = scanRecords(damaged).validLength;
        await expectCorrupt(damaged, "RECORD_CHECKSUM", firstBad);
      }),
      { numRuns: 60 },
    );
  });

  it.each([
    ["a receipt edited (checksum recomputed)", "ROOT_MISMATCH", (b: Bodies) => { b[0].anchors[0].receipt.scope = "test.forged.v1"; return b; }],
    ["a head root edited", "ROOT_MISMATCH", (b: Bodies) => { b[1].heads[0].root_hash = sha256Hex("x"); return b; }],
    ["a head signature replaced", "HEAD_SIGNATURE", (b: Bodies) => { b[2].heads[0].signature = b[0].heads[0].signature; return b; }],
    ["a head unlinked from the chain", "CHAIN_BROKEN", (b: Bodies) => { b[1].heads[0].prev_head_hash = sha256Hex("x"); return b; }],
    ["a record removed from the middle", "CHAIN_BROKEN", (b: Bodies) => [b[0], b[2]]],
    ["a record removed from the middle of a tile", "LEAF_ORDER", (b: Bodies) => { b[2].anchors[0].leaf_index = 2; return b; }],
    ["a record replayed", "DUPLICATE_RECEIPT", (b: Bodies) => [...b, b[0]]],
    ["a head by another key", "UNKNOWN_KEY", (b: Bodies) => { b[1].heads[0].key_id = "0123456789abcdef"; return b; }],
    ["a record that is not JSON", "RECORD_FORMAT", (b: Bodies) => [b[0], "{not json", b[2]]],
    ["a record without its head", "RECORD_FORMAT", (b: Bodies) => { b[1].heads = []; return b; }],
  ])("reports %s as %s and leaves the file as it was", async (_label, reason, edit) => {
    await expectCorrupt(rewrite(pristineLedger, edit), reason);
  });
});

describe("ledger durability", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function fileHandlePrototype(): Promise<{ datasync(): Promise<void> }> {
    const handle = await open(keyFile, "r");
    await handle.close();
    return Object.getPrototypeOf(handle) as { datasync(): Promise<void> };
  }

  it("acknowledges an anchor only after its record is fsynced", async () => {
    const proto = await fileHandlePrototype();
    const original = proto.datasync;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let synced = 0;
    vi.spyOn(proto, "datasync").mockImplementation(async function (this: unknown) {
      await gate;
      await original.call(this);
      synced++;
    });
    await withAuthority(await homeWith(Buffer.alloc(0), "durable"), async (authority) => {
      let acknowledged = false;
      const anchoring = authority.anchor(await authority.issueReceipt(request(9))).then(() => (acknowledged = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(acknowledged).toBe(false);
      release();
      await anchoring;
      expect(synced).toBe(1);
    });
  });

  it("fails every later anchor after a failed fsync, and recovers on reopening", async () => {
    const proto = await fileHandlePrototype();
    const home = await homeWith(pristineLedger, "failing");
    await withAuthority(home, async (authority) => {
      const receipt = await authority.issueReceipt(request(7));
      vi.spyOn(proto, "datasync").mockRejectedValueOnce(Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" }));
      await expect(authority.anchor(receipt)).rejects.toMatchObject({ code: "LEDGER_IO_FAILED", cause: { code: "EIO" } });
      await expect(authority.anchor(await authority.issueReceipt(request(8)))).rejects.toMatchObject({ code: "LEDGER_IO_FAILED" });
    });
    vi.restoreAllMocks();
    await withAuthority(home, async (authority) => {
      // The record reached the page cache before the failed fsync, so it may survive; earlier ones must.
      expect((await authority.status()).anchors).toBeGreaterThanOrEqual(3);
      await authority.anchor(await authority.issueReceipt(request(8)));
    });
  });
});
