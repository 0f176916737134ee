import { copyFile, mkdir, open, readFile, readdir, rm, stat, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { contextAt, createTsaeRequest, formatNote, parseNote, sha256Hex, type AnchorProof, type NoteSignature, type Receipt } from "../src/index.js";
import { LedgerCorruptError, checkLedgerFile, createLocalAuthority, readVerifyingKeyFile, type LocalAuthority } from "../src/node/index.js";
import { HEADER_BYTES, frameRecord, recordAt } from "../src/node/record-frame.js";
import { failNextOn } from "./file-faults.js";
import { steppingClock, tempDir } from "./helpers.js";

const T0 = Date.UTC(2025, 4, 1, 12);
const request = (n: number, zone = 5) => createTsaeRequest(contextAt(T0 + n, { zone }), { scope: "test.recovery.v1", action_hash_hex: sha256Hex(`action ${n}`) });

let root: string;
let pristineLedger: Buffer;
let proofs: AnchorProof[];
let lastOffset: number;
let prevOffset: number;
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

/** The whole records at the start of a ledger, and where they end. */
function splitLedger(ledger: Buffer): { records: { offset: number; body: Buffer }[]; validLength: number } {
  const records: { offset: number; body: Buffer }[] = [];
  let offset = 0;
  for (let record = recordAt(ledger, 0); record !== undefined && "body" in record; record = recordAt(ledger, offset)) {
    records.push({ offset, body: record.body });
    offset += HEADER_BYTES + record.body.length;
  }
  return { records, validLength: offset };
}

/** Re-frames the ledger after editing the parsed record bodies, so checksums stay valid. */
// Record bodies are edited freely to forge ledgers.
type Bodies = any[];

/** A stored checkpoint note with one body line replaced, its signature kept. */
function withLine(note: string, index: number, line: string): string {
  const { text, signatures } = parseNote(note);
  const lines = text.split("\n");
  lines[index] = line;
  return formatNote({ text: lines.join("\n"), signatures });
}

/** A stored checkpoint note with its signature line edited. */
function withSignature(note: string, edit: (line: NoteSignature) => NoteSignature): string {
  const { text, signatures } = parseNote(note);
  return formatNote({ text, signatures: signatures.map(edit) });
}

const signatureOf = (note: string) => (parseNote(note).signatures[0] as NoteSignature).signature;
const base64Hash = (label: string) => Buffer.from(sha256Hex(label), "hex").toString("base64");

function rewrite(ledger: Buffer, edit: (bodies: Bodies) => unknown[]): Buffer {
  const bodies: Bodies = splitLedger(ledger).records.map((r) => JSON.parse(r.body.toString("utf8")));
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
    for (const [n, zone] of [
      [1, 5],
      [2, 6],
      [3, 5],
    ] as const)
      anchored.push(await authority.anchor(await authority.issueReceipt(request(n, zone))));
    return anchored;
  });
  keyFile = join(home, "signing-key.pem");
  pristineLedger = await readFile(join(home, "clockchain.log"));
  const records = splitLedger(pristineLedger).records;
  expect(records).toHaveLength(3);
  prevOffset = (records[1] as { offset: number }).offset;
  lastOffset = (records[2] as { offset: number }).offset;
});

describe("ledger recovery", () => {
  it("survives a cut at any byte offset of the last record, keeping every earlier record", async () => {
    // Every offset in and just after the header (where the reader's decisions change), then a spread through the body
    // and its last bytes: a cut anywhere in the body is read the same way, so every offset would only repeat these.
    const header = Array.from({ length: HEADER_BYTES + 2 }, (_, i) => lastOffset + i);
    const body = Array.from({ length: 12 }, (_, i) => lastOffset + HEADER_BYTES + 2 + Math.floor(((pristineLedger.length - lastOffset - HEADER_BYTES - 4) * (i + 1)) / 13));
    const cuts = [...new Set([...header, ...body, pristineLedger.length - 2, pristineLedger.length - 1])];
    for (const [n, cut] of cuts.entries()) {
      const home = await homeWith(pristineLedger.subarray(0, cut), "cut");
      const status = await withAuthority(home, async (authority) => {
        for (const proof of proofs.slice(0, 2)) expect(await authority.getAnchorProof(proof.receipt_hash)).toEqual(proof);
        expect(await authority.getAnchorProof(proofs[2]?.receipt_hash as string)).toBeUndefined();
        const status = await authority.status();
        if (n % 5 === 0) {
          // Appending after recovery continues the tile and the chain.
          const next = await authority.anchor(await authority.issueReceipt(request(4)));
          expect(next).toMatchObject({ tile_id: proofs[2]?.tile_id, leaf_index: 1, checkpoint: { sequence: 2 } });
        }
        return status;
      });
      const torn = cut - lastOffset;
      expect(status.recovered).toEqual(torn === 0 ? undefined : { offset: lastOffset, bytes: torn, saved_to: expect.stringContaining(".torn-") });
      if (status.recovered !== undefined) expect(await readFile(status.recovered.saved_to)).toEqual(pristineLedger.subarray(lastOffset, cut));
      if (n % 5 !== 0) expect((await readFile(join(home, "clockchain.log"))).length).toBe(lastOffset);
    }
    // Hundreds of opens: 15 s alone, twice that on the shared 2-core machine.
  }, 180_000);

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
        const firstBad = splitLedger(damaged).validLength;
        await expectCorrupt(damaged, "RECORD_CHECKSUM", firstBad);
      }),
      { numRuns: 60 },
    );
  });

  it.each([
    ["64 zero bytes across the boundary of the last two records", (f: Buffer) => f.fill(0, lastOffset - 32, lastOffset + 32)],
    [
      "a flipped byte in the second-to-last record and in the last record's magic",
      (f: Buffer) => {
        f[prevOffset + 100] = (f[prevOffset + 100] as number) ^ 1;
        f[lastOffset] = (f[lastOffset] as number) ^ 1;
        return f;
      },
    ],
  ])("reports %s rather than dropping both records as a torn tail", async (_label, damage) => {
    await expectCorrupt(damage(Buffer.from(pristineLedger)), "RECORD_CHECKSUM", prevOffset);
  });

  it("reports a damaged second-to-last record whatever happened to the last one", async () => {
    // Its header is intact and says it ends before the end of the file, so it was not the record being written at a crash.
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: prevOffset + 12, max: lastOffset - 1 }),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: lastOffset + 1, max: pristineLedger.length }),
        fc.option(fc.integer({ min: lastOffset, max: pristineLedger.length - 1 })),
        async (at, bit, cut, lastDamage) => {
          const damaged = Buffer.from(pristineLedger.subarray(0, cut));
          damaged[at] = (damaged[at] as number) ^ (1 << bit);
          if (lastDamage !== null && lastDamage < cut) damaged[lastDamage] = (damaged[lastDamage] as number) ^ 0xff;
          await expectCorrupt(damaged, "RECORD_CHECKSUM", prevOffset);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("opens a file over 2 GiB, and reports damage longer than any record as corruption rather than a torn tail", async () => {
    const home = await homeWith(pristineLedger, "large");
    const path = join(home, "clockchain.log");
    // Sparse: a file size extended far past what any single write could have left.
    await truncate(path, 2 ** 31 + 4096);
    const error = await withAuthority(home, (authority) => authority.status()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "LEDGER_CORRUPT", reason: "RECORD_CHECKSUM", offset: pristineLedger.length });
    expect((await stat(path)).size).toBe(2 ** 31 + 4096);
  });

  it("checks every head signature of a ledger with more heads than are checked at once", async () => {
    const home = join(root, "many-heads");
    // One concurrent burst across 1100 tiles: two group commits carrying 1024 and 76 heads.
    const day = Math.floor(T0 / 86_400_000);
    await withAuthority(home, async (authority) => {
      const receipts = await Promise.all(
        Array.from({ length: 1100 }, (_, n) => authority.issueReceipt(createTsaeRequest(contextAt((day - n) * 86_400_000), { scope: "test.heads.v1", action_hash_hex: sha256Hex(`h${n}`) }))),
      );
      await Promise.all(receipts.map((receipt) => authority.anchor(receipt)));
    });
    const ledger = await readFile(join(home, "clockchain.log"));
    expect(splitLedger(ledger).records.map((r) => JSON.parse(r.body.toString("utf8")).checkpoints.length)).toEqual([1024, 76]);
    await withAuthority(home, async (authority) => expect((await authority.status()).anchors).toBe(1100));
    // The first record's heads are checked before the second record is replayed, so its bad signature is reported first
    // (the second record's link to the altered head is broken too).
    await writeFile(
      join(home, "clockchain.log"),
      rewrite(ledger, (b) => {
        b[0].checkpoints[1023] = withSignature(b[0].checkpoints[1023], (line) => ({ ...line, signature: signatureOf(b[0].checkpoints[1022]) }));
        return b;
      }),
    );
    // The snapshot saved on closing vouches for the records it covers (they verified when it was saved); this is the full check, without it.
    await rm(join(home, "clockchain.snapshot"));
    await expect(withAuthority(home, (authority) => authority.status())).rejects.toMatchObject({ reason: "HEAD_SIGNATURE", offset: 0 });
  });

  it.each([
    [
      "a receipt edited (checksum recomputed)",
      "ROOT_MISMATCH",
      (b: Bodies) => {
        b[0].anchors[0].receipt.scope = "test.forged.v1";
        return b;
      },
    ],
    [
      "a head root edited",
      "ROOT_MISMATCH",
      (b: Bodies) => {
        b[1].checkpoints[0] = withLine(b[1].checkpoints[0], 2, base64Hash("x"));
        return b;
      },
    ],
    [
      "a head signature replaced",
      "HEAD_SIGNATURE",
      (b: Bodies) => {
        b[2].checkpoints[0] = withSignature(b[2].checkpoints[0], (line) => ({ ...line, signature: signatureOf(b[0].checkpoints[0]) }));
        return b;
      },
    ],
    [
      "a head unlinked from the chain",
      "CHAIN_BROKEN",
      (b: Bodies) => {
        b[1].checkpoints[0] = withLine(b[1].checkpoints[0], 3, `temporal-chain 1 ${base64Hash("x")}`);
        return b;
      },
    ],
    ["a record removed from the middle", "CHAIN_BROKEN", (b: Bodies) => [b[0], b[2]]],
    [
      "a record removed from the middle of a tile",
      "LEAF_ORDER",
      (b: Bodies) => {
        b[2].anchors[0].leaf_index = 2;
        return b;
      },
    ],
    ["a record replayed", "DUPLICATE_RECEIPT", (b: Bodies) => [...b, b[0]]],
    ["a record that is not JSON", "RECORD_FORMAT", (b: Bodies) => [b[0], "{not json", b[2]]],
    [
      "a record without its head",
      "RECORD_FORMAT",
      (b: Bodies) => {
        b[1].checkpoints = [];
        return b;
      },
    ],
    ["a record that anchors nothing", "RECORD_FORMAT", (b: Bodies) => [b[0], { anchors: [], checkpoints: [] }, b[1], b[2]]],
    ["a last record that anchors nothing", "RECORD_FORMAT", (b: Bodies) => [...b, { anchors: [], checkpoints: [] }]],
  ])("reports %s as %s and leaves the file as it was", async (_label, reason, edit) => {
    await expectCorrupt(rewrite(pristineLedger, edit), reason);
  });

  it("reports a head by another key as LOG_KEY_UNKNOWN (the wrong keys, not damage) and leaves the file as it was", async () => {
    const ledger = rewrite(pristineLedger, (b: Bodies) => {
      b[1].checkpoints[0] = withSignature(b[1].checkpoints[0], (line) => ({ ...line, keyId: (line.keyId ^ 1) >>> 0 }));
      return b;
    });
    const home = await homeWith(ledger, "other-key");
    await expect(withAuthority(home, (authority) => authority.status())).rejects.toMatchObject({ code: "LOG_KEY_UNKNOWN", message: expect.stringContaining("checkpoint 1 ") });
    expect(await readFile(join(home, "clockchain.log"))).toEqual(ledger);
  });

  it("reports an earlier record's forged signature rather than a later head by another key (damage is not hidden behind LOG_KEY_UNKNOWN)", async () => {
    const ledger = rewrite(pristineLedger, (b: Bodies) => {
      b[0].checkpoints[0] = withSignature(b[0].checkpoints[0], (line) => ({ ...line, signature: signatureOf(b[1].checkpoints[0]) }));
      b[2].checkpoints[0] = withSignature(b[2].checkpoints[0], (line) => ({ ...line, keyId: (line.keyId ^ 1) >>> 0 }));
      return b;
    });
    await expectCorrupt(ledger, "HEAD_SIGNATURE", 0);
    await expect(checkLedgerFile(join(await homeWith(ledger, "forged-then-other-key"), "clockchain.log"), await readVerifyingKeyFile(keyFile))).rejects.toMatchObject({
      reason: "HEAD_SIGNATURE",
    });
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

  const ioError = (syscall: string) => Object.assign(new Error(`EIO: i/o error, ${syscall}`), { code: "EIO" });

  it("removes a batch whose fsync failed from the file, rejects only that batch and keeps anchoring", async () => {
    const home = await homeWith(pristineLedger, "failing");
    await withAuthority(home, async (authority) => {
      const receipts = await Promise.all([7, 8, 9].map((n) => authority.issueReceipt(request(n))));
      // The write reaches the file; only its fsync fails.
      await failNextOn(join(home, "clockchain.log"), "datasync", ioError("fdatasync"));
      for (const result of await Promise.allSettled(receipts.map((receipt) => authority.anchor(receipt)))) {
        expect(result).toMatchObject({ status: "rejected", reason: { code: "LEDGER_IO_FAILED", cause: { code: "EIO" } } });
      }
      expect(await readFile(join(home, "clockchain.log"))).toEqual(pristineLedger);
      expect(await authority.getAnchorProof(sha256Hex("x"))).toBeUndefined();
      // Memory was rolled back too: the next anchor continues the tile and the chain where the file ends.
      const next = await authority.anchor(receipts[1] as Receipt);
      expect(next).toMatchObject({ tile_id: proofs[2]?.tile_id, leaf_index: 2, checkpoint: { sequence: 3 } });
    });
    vi.restoreAllMocks();
    await withAuthority(home, async (authority) => {
      expect(await authority.status()).toMatchObject({ anchors: 4, recovered: undefined });
    });
  });

  it("shuts the authority down when a failed batch cannot be removed, and tells the caller to restart", async () => {
    const home = await homeWith(pristineLedger, "unrecoverable");
    const authority = createLocalAuthority({ home, clock: steppingClock(T0 + 1000) });
    const receipt = await authority.issueReceipt(request(7));
    await failNextOn(join(home, "clockchain.log"), "datasync", ioError("fdatasync"));
    await failNextOn(join(home, "clockchain.log"), "truncate", ioError("ftruncate"));
    await expect(authority.anchor(receipt)).rejects.toMatchObject({ code: "LEDGER_IO_FAILED", cause: { code: "EIO" }, message: expect.stringMatching(/restart the process/) });
    expect(authority).toMatchObject({ failed: true, closed: false });
    for (const call of [() => authority.anchor(receipt), () => authority.issueReceipt(request(8)), () => authority.status()]) {
      await expect(call()).rejects.toMatchObject({ code: "LEDGER_IO_FAILED", message: expect.stringMatching(/restart the process/) });
    }
    // The home is released, so a new authority (as after a restart) can reopen and re-verify the ledger.
    expect(await readdir(home)).not.toContain("lock");
    vi.restoreAllMocks();
    await withAuthority(home, async (reopened) => expect((await reopened.status()).anchors).toBeGreaterThanOrEqual(3));
    await authority.close();
  });
});
