import { copyFile, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { contextAt, createTsaeRequest, formatNote, parseNote, receiptHash, sha256Hex, type AnchorProof, type Receipt } from "../src/index.js";
import { FileLogStore, FileSigner, homePaths } from "../src/node/index.js";
import { HEADER_BYTES, frameRecord, recordAt } from "../src/node/record-frame.js";
import { tempDir, withAuthority } from "./helpers.js";

const T0 = Date.UTC(2025, 7, 2, 9);
const request = (n: number, zone = 3) =>
  createTsaeRequest(contextAt(T0 + n, { zone }), { scope: "test.snapshot.v1", action_hash_hex: sha256Hex(`snapshot ${n}`) });

let root: string;
let keyFile: string;
/** The ledger and snapshot after two anchors, and after a third. */
let two: { ledger: Buffer; snapshot: Buffer };
let three: { ledger: Buffer; snapshot: Buffer };
let proofs: AnchorProof[];

async function anchorInto(home: string, n: number, zone: number): Promise<AnchorProof> {
  return withAuthority(home, T0 + 1000 + n, async (authority) => authority.anchor(await authority.issueReceipt(request(n, zone))));
}

async function saved(home: string): Promise<{ ledger: Buffer; snapshot: Buffer }> {
  return { ledger: await readFile(join(home, "clockchain.log")), snapshot: await readFile(join(home, "clockchain.snapshot")) };
}

/** A fresh home with the pristine key, the ledger and (unless undefined) the snapshot given. */
async function homeWith(ledger: Buffer, snapshot: Buffer | undefined): Promise<string> {
  const home = join(root, `home-${Math.random().toString(36).slice(2)}`);
  await mkdir(home, { recursive: true });
  await copyFile(keyFile, join(home, "signing-key.pem"));
  await writeFile(join(home, "clockchain.log"), ledger);
  if (snapshot !== undefined) await writeFile(join(home, "clockchain.snapshot"), snapshot);
  return home;
}

function recordOffsets(ledger: Buffer): number[] {
  const offsets: number[] = [];
  for (let offset = 0; offset < ledger.length; ) {
    const record = recordAt(ledger, offset);
    if (record === undefined || !("body" in record)) break;
    offsets.push(offset);
    offset += HEADER_BYTES + record.body.length;
  }
  return offsets;
}

/** The ledger with a bit of the first record's body flipped (a checksum failure a full replay reports). */
function damagedFirstRecord(ledger: Buffer): Buffer {
  const damaged = Buffer.from(ledger);
  damaged[HEADER_BYTES + 5] = (damaged[HEADER_BYTES + 5] as number) ^ 1;
  return damaged;
}

const openStatus = (home: string) => withAuthority(home, T0 + 5000, (authority) => authority.status());

beforeAll(async () => {
  root = await tempDir();
  const home = join(root, "pristine");
  proofs = [await anchorInto(home, 1, 3), await anchorInto(home, 2, 4)];
  two = await saved(home);
  proofs.push(await anchorInto(home, 3, 3));
  three = await saved(home);
  keyFile = join(home, "signing-key.pem");
  expect(recordOffsets(three.ledger)).toHaveLength(3);
});

describe("ledger snapshot", () => {
  it("is saved atomically on closing, leaving no temporary file", async () => {
    expect((await readdir(join(root, "pristine"))).sort()).toEqual([".gitignore", "clockchain.log", "clockchain.snapshot", "signing-key.pem"]);
  });

  it("is where opening starts: the records it covers are not read again", async () => {
    // Damage a full replay reports (see ledger-recovery) goes unseen when the snapshot covers it; `temporalc ledger verify` reads everything.
    const home = await homeWith(damagedFirstRecord(three.ledger), three.snapshot);
    await withAuthority(home, T0 + 5000, async (authority) => {
      expect(await authority.status()).toMatchObject({ anchors: 3, records: 3 });
      // The last anchor of each tile proves against the head it was anchored under; the first of tile 3 now against a later one.
      for (const proof of proofs.slice(1)) expect(await authority.getAnchorProof(proof.receipt_hash)).toEqual(proof);
      expect(await authority.getAnchorProof(proofs[0]?.receipt_hash as string)).toMatchObject({ leaf_index: 0, checkpoint: proofs[2]?.checkpoint });
      // Appending continues the tile and the chain the snapshot ends with.
      expect(await authority.anchor(await authority.issueReceipt(request(4, 4)))).toMatchObject({ tile_id: proofs[1]?.tile_id, leaf_index: 1, checkpoint: { sequence: 3 } });
    });
  });

  it("replays and verifies only the records after it", async () => {
    const home = await homeWith(damagedFirstRecord(three.ledger), two.snapshot);
    await withAuthority(home, T0 + 5000, async (authority) => {
      expect(await authority.status()).toMatchObject({ anchors: 3, records: 3 });
      expect(await authority.getAnchorProof(proofs[2]?.receipt_hash as string)).toEqual(proofs[2]);
    });
    // Closing saved a snapshot covering all three records: the same bytes as the writer's own.
    expect(await readFile(join(home, "clockchain.snapshot"))).toEqual(three.snapshot);
  });

  it("is ignored, and the ledger replayed in full, when missing or damaged", async () => {
    const damagedSnapshot = Buffer.from(three.snapshot);
    damagedSnapshot[damagedSnapshot.length >> 1] = (damagedSnapshot[damagedSnapshot.length >> 1] as number) ^ 0x10;
    for (const snapshot of [undefined, damagedSnapshot, three.snapshot.subarray(0, 40), Buffer.alloc(0)]) {
      await expect(openStatus(await homeWith(damagedFirstRecord(three.ledger), snapshot))).rejects.toMatchObject({ code: "LEDGER_CORRUPT", reason: "RECORD_CHECKSUM", offset: 0 });
      const home = await homeWith(three.ledger, snapshot);
      expect(await openStatus(home)).toMatchObject({ anchors: 3, records: 3 });
      expect(await readFile(join(home, "clockchain.snapshot"))).toEqual(three.snapshot);
    }
  });

  it("is ignored when it covers more than the file holds (records cut off its end)", async () => {
    const home = await homeWith(two.ledger, three.snapshot);
    await withAuthority(home, T0 + 5000, async (authority) => {
      expect(await authority.status()).toMatchObject({ anchors: 2, records: 2 });
      expect(await authority.getAnchorProof(proofs[2]?.receipt_hash as string)).toBeUndefined();
    });
  });

  it("is ignored when the record it ends with is not in the file as it was", async () => {
    const offsets = recordOffsets(three.ledger);
    const last = JSON.parse((recordAt(three.ledger, offsets[2] as number) as { body: Buffer }).body.toString("utf8"));
    // The same record with its checkpoint's signature zeroed: its checksum holds, the signature does not.
    const { text, signatures } = parseNote(last.checkpoints[0]);
    last.checkpoints[0] = formatNote({ text, signatures: signatures.map((line) => ({ ...line, signature: new Uint8Array(line.signature.length) })) });
    const edited = Buffer.concat([three.ledger.subarray(0, offsets[2]), frameRecord(Buffer.from(JSON.stringify(last)))]);
    expect(edited.length).toBe(three.ledger.length);
    await expect(openStatus(await homeWith(edited, three.snapshot))).rejects.toMatchObject({ code: "LEDGER_CORRUPT", reason: "HEAD_SIGNATURE", offset: offsets[2] });
    // A ledger where another record took the place of the one it ends with (as after a failed append was cut back).
    const other = await homeWith(two.ledger, undefined);
    await anchorInto(other, 9, 3);
    const replaced = await readFile(join(other, "clockchain.log"));
    const home = await homeWith(replaced, three.snapshot);
    await withAuthority(home, T0 + 5000, async (authority) => {
      expect(await authority.status()).toMatchObject({ anchors: 3 });
      expect(await authority.getAnchorProof(proofs[2]?.receipt_hash as string)).toBeUndefined();
    });
  });

  it("is saved by appends every snapshotEveryRecords records, so a crash leaves little to replay", async () => {
    const home = await homeWith(Buffer.alloc(0), undefined);
    const paths = homePaths(home);
    const key = await new FileSigner(paths).load();
    const signing = { key: key.verifying, authority_name: "snapshot.test", issuedUnixMs: () => T0, sign: (message: string) => key.sign(message) };
    const log = new FileLogStore(paths, { snapshotEveryRecords: 2 });
    await log.open(key.verifying);
    const entry = (n: number) => {
      const receipt = { scope: "test.snapshot.v1", tile_id: 240_001, action_hash_hex: sha256Hex(`periodic ${n}`), signature: "0".repeat(128) } as unknown as Receipt;
      return { receipt, hash: receiptHash(receipt) };
    };
    for (let n = 0; n < 5; n++) {
      await log.append([entry(n)], signing);
      // The save is queued behind the append, which does not wait for it; the next call on the store does.
      await log.status();
      // Saved after the 2nd and 4th records; never closed, as in a crash.
      expect((await readdir(home)).sort()).toEqual(n < 1 ? ["clockchain.log", "signing-key.pem"] : ["clockchain.log", "clockchain.snapshot", "signing-key.pem"]);
    }
    const crashed = await readFile(join(home, "clockchain.snapshot"));
    // A second store starts from that snapshot (4 records) and replays the 5th: damage before it goes unseen.
    const ledger = await readFile(join(home, "clockchain.log"));
    const fresh = await homeWith(damagedFirstRecord(ledger), crashed);
    expect(await openStatus(fresh)).toMatchObject({ anchors: 5, records: 5 });
    expect(() => new FileLogStore(paths, { snapshotEveryRecords: 0 })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    await log.close();
  });

  it("is not written for a ledger that fails to open", async () => {
    const home = await homeWith(damagedFirstRecord(three.ledger), undefined);
    await expect(openStatus(home)).rejects.toMatchObject({ code: "LEDGER_CORRUPT" });
    expect((await readdir(home)).sort()).toEqual(["clockchain.log", "signing-key.pem"]);
    await rm(home, { recursive: true });
  });
});
