import { copyFile, cp, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { contextAt, createTsaeRequest, defaultAuthorityName, formatNote, parseNote, receiptHash, sha256Hex, verifyAnchorProof, type AnchorProof, type Receipt } from "../src/index.js";
import { FileLogStore, FileSigner, homePaths } from "../src/node/index.js";
import { HEADER_BYTES, frameRecord, recordAt } from "../src/node/record-frame.js";
import { mergeRunsAside } from "../src/node/snapshot-store.js";
import { decodeStateHead, encodeStateHead, type StateHead } from "../src/node/state-snapshot.js";
import { tempDir, withAuthority } from "./helpers.js";

const T0 = Date.UTC(2025, 7, 2, 9);
const request = (n: number, zone = 3) => createTsaeRequest(contextAt(T0 + n, { zone }), { scope: "test.snapshot.v1", action_hash_hex: sha256Hex(`snapshot ${n}`) });

let root: string;
let keyFile: string;
/** The ledger and stored state (its head's bytes, and a copy of its directory) after two anchors, and after a third. */
interface Saved {
  readonly ledger: Buffer;
  readonly snapshot: Buffer;
  readonly state: string;
}
let two: Saved;
let three: Saved;
let proofs: AnchorProof[];

async function anchorInto(home: string, n: number, zone: number): Promise<AnchorProof> {
  return withAuthority(home, T0 + 1000 + n, async (authority) => authority.anchor(await authority.issueReceipt(request(n, zone))));
}

async function saved(home: string): Promise<Saved> {
  const state = join(root, `state-${Math.random().toString(36).slice(2)}`);
  await cp(join(home, "clockchain.state"), state, { recursive: true });
  return { ledger: await readFile(join(home, "clockchain.log")), snapshot: await readFile(join(home, "clockchain.snapshot")), state };
}

/** A fresh home with the pristine key, the ledger and (unless undefined) the state head given, with the state's files of `from`. */
async function homeWith(ledger: Buffer, snapshot: Buffer | undefined, from: Saved = three): Promise<string> {
  const home = join(root, `home-${Math.random().toString(36).slice(2)}`);
  await mkdir(home, { recursive: true });
  await copyFile(keyFile, join(home, "signing-key.pem"));
  await writeFile(join(home, "clockchain.log"), ledger);
  if (snapshot !== undefined) {
    await writeFile(join(home, "clockchain.snapshot"), snapshot);
    await cp(from.state, join(home, "clockchain.state"), { recursive: true });
  }
  return home;
}

/** The stored state's files (generation/name), each once. */
async function stateFiles(home: string): Promise<string[]> {
  const dir = join(home, "clockchain.state");
  const files: string[] = [];
  for (const generation of await readdir(dir)) for (const name of await readdir(join(dir, generation))) files.push(`${generation}/${name}`);
  return files.sort();
}

function recordOffsets(ledger: Buffer): number[] {
  const offsets: number[] = [];
  for (let offset = 0; offset < ledger.length;) {
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

/** The home's stored state was written again from its records (a new generation) and is used from now on: damage in the records it covers goes unseen. */
async function expectRebuilt(home: string): Promise<void> {
  const generations = await readdir(join(home, "clockchain.state"));
  expect(generations).toHaveLength(1);
  expect(await readFile(join(home, "clockchain.snapshot"))).not.toEqual(three.snapshot);
  const copy = await homeWith(damagedFirstRecord(three.ledger), await readFile(join(home, "clockchain.snapshot")), { ...three, state: join(home, "clockchain.state") });
  expect(await openStatus(copy)).toMatchObject({ anchors: 3, records: 3 });
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
  it("is saved atomically on closing, leaving no temporary file: a head, and per tile one file per tree level, its receipts and their times", async () => {
    const home = join(root, "pristine");
    expect((await readdir(home)).sort()).toEqual([".gitignore", "clockchain.log", "clockchain.snapshot", "clockchain.state", "signing-key.pem"]);
    const tiles = [...new Set(proofs.map((proof) => proof.tile_id))].sort();
    const [generation] = await readdir(join(home, "clockchain.state"));
    // Tile of zone 3: two leaves (two levels); zone 4: one. Runs 0 and 1 (one receipt each) were merged into 2; run 3 holds the third receipt.
    const expected = ["heads", "run-2", "run-3", ...tiles.flatMap((tile) => [`tile-${tile}-level-0`, `tile-${tile}-receipts`, `tile-${tile}-times`]), `tile-${proofs[0]?.tile_id}-level-1`];
    expect(await stateFiles(home)).toEqual(expected.map((name) => `${generation}/${name}`).sort());
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
    // Closing appended the third record's leaves, head and index entries to the same files, and wrote the same head as the writer's own.
    expect(await readFile(join(home, "clockchain.snapshot"))).toEqual(three.snapshot);
    expect(await stateFiles(home)).toEqual(await stateFiles(join(root, "pristine")));
  });

  it("is ignored, and the ledger replayed in full, when missing or damaged", async () => {
    const damagedSnapshot = Buffer.from(three.snapshot);
    damagedSnapshot[damagedSnapshot.length >> 1] = (damagedSnapshot[damagedSnapshot.length >> 1] as number) ^ 0x10;
    for (const snapshot of [undefined, damagedSnapshot, three.snapshot.subarray(0, 40), Buffer.alloc(0)]) {
      await expect(openStatus(await homeWith(damagedFirstRecord(three.ledger), snapshot))).rejects.toMatchObject({ code: "LEDGER_CORRUPT", reason: "RECORD_CHECKSUM", offset: 0 });
      const home = await homeWith(three.ledger, snapshot);
      expect(await openStatus(home)).toMatchObject({ anchors: 3, records: 3 });
      await expectRebuilt(home);
    }
  });

  it("is rebuilt from the records, never trusted, when one of its files is damaged or cut short", async () => {
    const pristine = join(root, "pristine");
    for (const file of await stateFiles(pristine)) {
      for (const damage of ["flip", "cut"] as const) {
        const home = await homeWith(three.ledger, three.snapshot);
        const path = join(home, "clockchain.state", file);
        const bytes = await readFile(path);
        if (damage === "flip") bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] as number) ^ 0x04;
        await writeFile(path, damage === "flip" ? bytes : bytes.subarray(0, bytes.length - 1));
        await withAuthority(home, T0 + 5000, async (authority) => {
          expect(await authority.status()).toMatchObject({ anchors: 3, records: 3 });
          for (const proof of proofs) expect(await authority.getAnchorProof(proof.receipt_hash)).toMatchObject({ receipt_hash: proof.receipt_hash, leaf_index: proof.leaf_index });
          // Every file is read by one of these; each answer checks out.
          for (const proof of proofs)
            expect(await authority.listAnchors(proof.tile_id)).toContainEqual(
              expect.objectContaining({ receipt_hash: proof.receipt_hash, leaf_index: proof.leaf_index, anchored_unix_ms: proof.checkpoint.issued_unix_ms }),
            );
        });
        await expectRebuilt(home);
      }
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
    // The name a local authority without a configured one signs under: the home is reopened by one below.
    const signing = { key: key.verifying, authority_name: defaultAuthorityName(key.verifying.jwk), issuedUnixMs: () => T0, sign: (message: string) => key.sign(message) };
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
      expect((await readdir(home)).sort()).toEqual(n < 1 ? ["clockchain.log", "signing-key.pem"] : ["clockchain.log", "clockchain.snapshot", "clockchain.state", "signing-key.pem"]);
    }
    const crashed = await saved(home);
    // A second store starts from that stored state (4 records) and replays the 5th: damage before it goes unseen.
    const fresh = await homeWith(damagedFirstRecord(crashed.ledger), crashed.snapshot, crashed);
    expect(await openStatus(fresh)).toMatchObject({ anchors: 5, records: 5 });
    expect(() => new FileLogStore(paths, { snapshotEveryRecords: 0 })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    await log.close();
  });

  it("serves proofs from disk after reopening that verify against their checkpoints, as they did before", async () => {
    const batch = fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(batch, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 4 }),
        async (batches, picks, every) => {
          const home = await homeWith(Buffer.alloc(0), undefined);
          const paths = homePaths(home);
          const key = await new FileSigner(paths).load();
          const signing = { key: key.verifying, authority_name: "snapshot.test", issuedUnixMs: () => T0, sign: (message: string) => key.sign(message) };
          const hashes: string[] = [];
          // Saves every `every` records: several saves, each appending to the stored state and merging index runs.
          const writer = new FileLogStore(paths, { snapshotEveryRecords: every });
          await writer.open(key.verifying);
          for (const tiles of batches) {
            const entries = tiles.map((tile) => {
              const receipt = {
                scope: "test.snapshot.v1",
                tile_id: 240_100 + tile,
                action_hash_hex: sha256Hex(`property ${hashes.length} ${Math.random()}`),
                signature: "0".repeat(128),
              } as unknown as Receipt;
              hashes.push(receiptHash(receipt));
              return { receipt, hash: hashes.at(-1) as string };
            });
            await writer.append(entries, signing);
          }
          const picked = picks.map((n) => hashes[n % hashes.length] as string);
          const before = await Promise.all(picked.map((hash) => writer.proof(hash)));
          await writer.close();
          // The reader opens from the stored state covering every record: nothing replayed, every proof read from its files.
          expect(decodeStateHead(await readFile(paths.snapshot))).toMatchObject({ records: batches.length });
          const reader = new FileLogStore(paths);
          await reader.open(key.verifying);
          try {
            for (const [i, hash] of picked.entries()) {
              const proof = (await reader.proof(hash)) as AnchorProof;
              expect(proof).toEqual(before[i]);
              expect(await verifyAnchorProof(proof, key.verifying.jwk)).toBe(true);
            }
            expect(await reader.proof(sha256Hex("never anchored"))).toBeUndefined();
          } finally {
            await reader.close();
          }
          await rm(home, { recursive: true });
        },
      ),
      { numRuns: 12 },
    );
  });

  it("is extended by every store sharing the home, each saving what the others have not, and read on from by the others", async () => {
    const home = await homeWith(Buffer.alloc(0), undefined);
    const paths = homePaths(home);
    const key = await new FileSigner(paths).load();
    const signing = { key: key.verifying, authority_name: "snapshot.test", issuedUnixMs: () => T0, sign: (message: string) => key.sign(message) };
    const entry = (n: number) => {
      const receipt = { scope: "test.snapshot.v1", tile_id: 240_002 + (n % 2), action_hash_hex: sha256Hex(`shared ${n}`), signature: "0".repeat(128) } as unknown as Receipt;
      return { receipt, hash: receiptHash(receipt) };
    };
    // Opened first, it reads the others' records only when it appends last.
    const early = new FileLogStore(paths);
    await early.open(key.verifying);
    const generations = new Set<string>();
    const saved = async (records: number): Promise<void> => {
      const head = decodeStateHead(await readFile(paths.snapshot));
      expect(head).toMatchObject({ records });
      generations.add((head as { generation: string }).generation);
    };
    for (let n = 0; n < 7; n++) {
      // Each store opens from what the last one saved, appends one record, and saves it on closing.
      const store = new FileLogStore(paths);
      await store.open(key.verifying);
      await store.append([entry(n)], signing);
      await store.close();
      await saved(n + 1);
    }
    await early.append([entry(7)], signing);
    await early.close();
    await saved(8);
    // One generation throughout: every save appended to the files the first one wrote.
    expect(generations.size).toBe(1);
    expect(await readdir(join(home, "clockchain.state"))).toEqual([...generations]);
    const reader = new FileLogStore(paths);
    await reader.open(key.verifying);
    for (let n = 0; n < 8; n++) expect(await verifyAnchorProof((await reader.proof(entry(n).hash)) as AnchorProof, key.verifying.jwk)).toBe(true);
    expect(await reader.status()).toMatchObject({ records: 8, anchors: 8, chain_valid: true });
    await reader.close();
  });

  it("has index runs too large to merge under the lock merged aside, then put in their place for a moment under it", async () => {
    const home = await homeWith(three.ledger, three.snapshot);
    const paths = homePaths(home);
    const head = decodeStateHead(three.snapshot) as StateHead;
    expect(head.runs.map((run) => run.count)).toEqual([2, 1]);
    // Runs in the order a save leaves them when their merge was too large for the lock: the older no larger than the newer.
    await writeFile(paths.snapshot, encodeStateHead({ ...head, runs: [...head.runs].reverse() }));
    expect(await mergeRunsAside(paths, 1000)).toBe(true);
    const merged = decodeStateHead(await readFile(paths.snapshot)) as StateHead;
    expect(merged.runs).toHaveLength(1);
    expect(merged.runs[0]).toMatchObject({ count: 3 });
    expect((await stateFiles(home)).filter((name) => name.includes("/run-"))).toEqual([`${head.generation}/run-${merged.runs[0]?.number}`]);
    expect(await mergeRunsAside(paths, 1000)).toBe(false);
    // The merged run serves every lookup, from the stored state (damage in the records it covers goes unseen).
    await writeFile(paths.ledger, damagedFirstRecord(three.ledger));
    await withAuthority(home, T0 + 5000, async (authority) => {
      for (const proof of proofs) expect(await authority.getAnchorProof(proof.receipt_hash)).toMatchObject({ receipt_hash: proof.receipt_hash, leaf_index: proof.leaf_index });
    });
  });

  it("is not written for a ledger that fails to open", async () => {
    const home = await homeWith(damagedFirstRecord(three.ledger), undefined);
    await expect(openStatus(home)).rejects.toMatchObject({ code: "LEDGER_CORRUPT" });
    expect((await readdir(home)).sort()).toEqual(["clockchain.log", "signing-key.pem"]);
    await rm(home, { recursive: true });
  });
});
