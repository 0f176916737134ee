import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HashList, type ItemSeq } from "../src/core/hash-list.js";
import type { StoredState } from "../src/authority/clockchain-state.js";
import {
  ClockchainState,
  LogKeys,
  MemorySigner,
  formatNote,
  parseNote,
  receiptHash,
  sha256Hex,
  signedCheckpointOf,
  type HeadSigning,
  type LogEntry,
  type NoteSignature,
  type Receipt,
  type RecordBody,
  type SignedCheckpoint,
} from "../src/index.js";

const T0 = Date.UTC(2025, 6, 9, 3);
const key = new MemorySigner().load();

/** Entries (unsigned receipts suffice: the state hashes them, it does not check their signatures) in the given tiles. */
function entriesIn(tiles: readonly number[], from: number): LogEntry[] {
  return tiles.map((tile, i) => {
    const receipt = { scope: "test.state.v1", tile_id: 240_000 + tile, action_hash_hex: sha256Hex(`state ${from + i}`), signature: "0".repeat(128) } as unknown as Receipt;
    return { receipt, hash: receiptHash(receipt) };
  });
}

/** Builds records the way a store does: stage, sign, publish. */
async function write(batches: readonly (readonly number[])[]): Promise<{ state: ClockchainState; records: RecordBody[] }> {
  const k = await key;
  const signing: HeadSigning = { key: k.verifying, authority_name: "state.test", issuedUnixMs: () => T0, sign: (m) => k.sign(m) };
  const state = new ClockchainState();
  const records: RecordBody[] = [];
  let n = 0;
  for (const tiles of batches) {
    const leaves = state.stage(entriesIn(tiles, n));
    n += tiles.length;
    const signed = await state.signHeads(leaves, signing);
    state.publish(leaves, signed);
    records.push(ClockchainState.recordOf(leaves, signed.heads));
  }
  return { state, records };
}

/** The checkpoint with its signature line edited. */
function resigned(head: SignedCheckpoint, edit: (line: NoteSignature) => NoteSignature): SignedCheckpoint {
  const note = parseNote(head.note);
  return signedCheckpointOf(formatNote({ text: note.text, signatures: note.signatures.map(edit) }));
}

const rejectWith = (reason: string, detail: string) => Object.assign(new Error(detail), { reason });

async function replay(records: readonly RecordBody[]): Promise<ClockchainState> {
  const k = await key;
  const state = new ClockchainState();
  for (const record of records) {
    const checks = state.replay(JSON.parse(JSON.stringify(record)) as RecordBody, new LogKeys(k.verifying), rejectWith);
    for (const { valid } of checks) if (!(await valid)) throw rejectWith("HEAD_SIGNATURE", "bad signature");
  }
  return state;
}

/** A copy of an item list, 32 bytes per item unless told. */
function copied(items: ItemSeq, itemBytes = 32): HashList {
  const copy = new HashList(itemBytes);
  for (let i = 0; i < items.length; i++) copy.push(items.get(i).slice());
  return copy;
}

/** What a store keeps of `state` beside its records, copied (in memory: the file store's layout has its own tests). */
function storedOf(state: ClockchainState): StoredState {
  const parts = state.parts();
  return {
    records: parts.records,
    chainIntact: parts.chainIntact,
    headHashes: copied(parts.headHashes),
    runs: [HashList.adopt(parts.index.addedTable(), 40)],
    tiles: parts.tiles.map((tile) => ({ ...tile, levels: tile.levels.map((level) => copied(level)), receiptHashes: copied(tile.receiptHashes), anchoredAt: copied(tile.anchoredAt, 8) })),
    retiredKeys: parts.retiredKeys,
  };
}

const batches = fc.array(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 });

describe("ClockchainState", () => {
  it("replays the records it writes into the same trees and head chain", async () => {
    await fc.assert(
      fc.asyncProperty(batches, async (input) => {
        const { state, records } = await write(input);
        const replayed = await replay(records);
        expect(replayed.tiles()).toEqual(state.tiles());
        expect(replayed.lastCheckpoint).toEqual(state.lastCheckpoint);
        expect(replayed.records).toBe(records.length);
        for (let sequence = 0; sequence <= (state.lastCheckpoint?.sequence ?? 0); sequence++) expect(replayed.headHashAt(sequence)).toBe(state.headHashAt(sequence));
        expect(replayed.chainIntact).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it("opens over its stored parts into a state that answers and appends like the one stored", async () => {
    const k = await key;
    const signing: HeadSigning = { key: k.verifying, authority_name: "state.test", issuedUnixMs: () => T0 + 1, sign: (m) => k.sign(m) };
    const reject = (detail: string) => new Error(detail);
    await fc.assert(
      fc.asyncProperty(batches, fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 5 }), async (input, more) => {
        const { state, records } = await write(input);
        const restored = await ClockchainState.over(storedOf(state), records.at(-1) as RecordBody, new LogKeys(k.verifying), reject);
        expect(restored.tiles()).toEqual(state.tiles());
        expect([restored.records, restored.anchors, restored.lastCheckpoint, restored.chainIntact]).toEqual([state.records, state.anchors, state.lastCheckpoint, true]);
        for (let sequence = 0; sequence <= (state.lastCheckpoint?.sequence ?? 0); sequence++) expect(restored.headHashAt(sequence)).toBe(state.headHashAt(sequence));
        for (const { tile_id, tree_size } of state.tiles()) {
          expect(restored.list(tile_id)).toEqual(state.list(tile_id));
          for (const { receipt_hash } of state.list(tile_id)) expect(restored.proof(receipt_hash)).toEqual(state.proof(receipt_hash));
          if (tree_size > 1) expect(restored.consistencyProof(tile_id, 1, tree_size)).toEqual(state.consistencyProof(tile_id, 1, tree_size));
        }
        // Both extend the same way: the restored trees and chain continue where the saved ones end (Ed25519 signs deterministically).
        const entries = entriesIn(more, 1000);
        const signedA = await state.signHeads(state.stage(entries), signing);
        const signedB = await restored.signHeads(restored.stage(entries), signing);
        expect(signedB).toEqual(signedA);
      }),
      { numRuns: 25 },
    );
  });

  it("refuses stored parts that do not end with the given record's head, or whose heads, roots or index do not hold", async () => {
    const k = await key;
    const { state, records } = await write([
      [0, 1],
      [1, 2],
    ]);
    const reject = (detail: string) => new Error(detail);
    await expect(ClockchainState.over(storedOf(state), records[0] as RecordBody, new LogKeys(k.verifying), reject)).rejects.toThrow(/last head of the record/);
    const image = storedOf(state);
    // The first tile's checkpoint carrying the second's signature: its text and so its place in the chain are unchanged.
    const otherSignature = parseNote((image.tiles[1] as { head: SignedCheckpoint }).head.note).signatures[0]!.signature;
    const forged = { ...image, tiles: image.tiles.map((tile, i) => (i === 0 ? { ...tile, head: resigned(tile.head, (line) => ({ ...line, signature: otherSignature })) } : tile)) };
    await expect(ClockchainState.over(forged, records[1] as RecordBody, new LogKeys(k.verifying), reject)).rejects.toThrow(/does not verify/);
    const otherKey = (await new MemorySigner().load()).verifying;
    await expect(ClockchainState.over(image, records[1] as RecordBody, new LogKeys(otherKey), reject)).rejects.toThrow(/signed by one of the log's keys/);
    // A leaf hash changed under a head: the root computed from the levels is not the signed one.
    const changedLeaf = storedOf(state);
    (changedLeaf.tiles[0]!.levels[0] as HashList).get(0).fill(7);
    await expect(ClockchainState.over(changedLeaf, records[1] as RecordBody, new LogKeys(k.verifying), reject)).rejects.toThrow(/does not have its head's root/);
    await expect(ClockchainState.over({ ...storedOf(state), runs: [] }, records[1] as RecordBody, new LogKeys(k.verifying), reject)).rejects.toThrow(/receipt index holds 0 receipts/);
    // The last head's key is one the stored state says the log moved past.
    await expect(ClockchainState.over({ ...storedOf(state), retiredKeys: [k.verifying.key_id] }, records[1] as RecordBody, new LogKeys(k.verifying), reject)).rejects.toThrow(/moved past/);
  });

  it("refuses a record whose receipts, leaf order, heads or chain were changed", async () => {
    const { records } = await write([[0, 1], [1, 1, 2], [0]]);
    const edits: [string, (r: any[]) => void][] = [
      ["ROOT_MISMATCH", (r) => (r[1].anchors[0].receipt.scope = "test.forged.v1")],
      ["LEAF_ORDER", (r) => (r[2].anchors[0].leaf_index = 5)],
      ["CHAIN_BROKEN", (r) => r.splice(1, 1)],
      ["DUPLICATE_RECEIPT", (r) => r.push(r[0])],
      ["LOG_KEY_UNKNOWN", (r) => (r[2].heads[0] = resigned(r[2].heads[0], (line) => ({ ...line, keyId: (line.keyId ^ 1) >>> 0 })))],
      ["LOG_KEY_UNKNOWN", (r) => (r[2].heads[0] = resigned(r[2].heads[0], (line) => ({ ...line, name: "someone.else/tile/1" })))],
      ["RECORD_FORMAT", (r) => (r[1].heads = r[1].heads.slice(1))],
      ["HEAD_SIGNATURE", (r) => (r[2].heads[0] = resigned(r[2].heads[0], (line) => ({ ...line, signature: parseNote(r[0].heads[0].note).signatures[0]!.signature })))],
    ];
    for (const [reason, edit] of edits) {
      const forged = JSON.parse(JSON.stringify(records)) as any[];
      edit(forged);
      // A head by a key the state was not given is not damage but the wrong keys: a coded error of its own.
      await expect(replay(forged), reason).rejects.toMatchObject(reason === "LOG_KEY_UNKNOWN" ? { code: reason } : { reason });
    }
  });
});
