/**
 * Key rotation within one log, in the SDK's shared code: an authority over a log store whose earlier checkpoints a
 * retired key signed (the memory store here; the file store and PostgreSQL in packages/server/test/key-rotation.test.ts).
 */
import { open, rename } from "node:fs/promises";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BlockCache } from "../src/node/checked-item-file.js";
import { FileLogStore, checkLedgerFile, createLocalAuthority, createSigningKeyFile, homePaths, readVerifyingKeyFile } from "../src/node/index.js";
import { restoreSnapshot } from "../src/node/snapshot-store.js";
import {
  ClockchainState,
  LogKeys,
  MemoryChallengeStore,
  MemoryLogStore,
  MemorySigner,
  contextAt,
  createAuthority,
  createTsaeRequest,
  openTileCheckpoint,
  parseNote,
  receiptHash,
  sha256Hex,
  verifyAnchorProof,
  verifyCheckpointByAnyKey,
  verifyConsistencyProof,
  type AnchorProof,
  type AuthorityParts,
  type ComposedAuthority,
  type LogEntry,
  type LogStore,
  type Receipt,
  type RecordBody,
  type VerifyingKey,
} from "../src/index.js";
import { tempDir } from "./helpers.js";

const T0 = Date.UTC(2026, 10, 25, 12);

/** A copy the authority did not issue itself, so `anchor` checks its signature as it would a client's. */
const plainCopy = (receipt: Receipt): Receipt => JSON.parse(JSON.stringify(receipt)) as Receipt;

function authorityOver(log: LogStore, signer: MemorySigner, parts: Partial<AuthorityParts> = {}): ComposedAuthority {
  return createAuthority({ signer, log, challenges: new MemoryChallengeStore(), clock: () => T0, ...parts });
}

async function anchorSome(authority: ComposedAuthority, count: number, tag: string, zone = 3): Promise<{ receipt: Receipt; proof: AnchorProof }[]> {
  const anchored = [];
  for (let i = 0; i < count; i++) anchored.push(await anchorOne(authority, `${tag} ${i}`, zone));
  return anchored;
}

async function anchorOne(authority: ComposedAuthority, tag: string, zone = 3): Promise<{ receipt: Receipt; proof: AnchorProof }> {
  const receipt = await authority.issueReceipt(createTsaeRequest(contextAt(T0, { zone }), { scope: "test.rotation.v1", action_hash_hex: sha256Hex(tag) }));
  return { receipt, proof: await authority.anchor(receipt) };
}

describe("key rotation within one log (memory store)", () => {
  it("continues the log under key B with A retired: old and new proofs verify with the published keys, consistency holds", async () => {
    const log = new MemoryLogStore();
    const [signerA, signerB] = [new MemorySigner(), new MemorySigner()];
    const [keyA, keyB] = [(await signerA.load()).verifying, (await signerB.load()).verifying];
    const before = await anchorSome(authorityOver(log, signerA, { authorityName: "rotation.example" }), 3, "before");
    const rotated = authorityOver(log, signerB, { authorityName: "rotation.example", previousKeys: [keyA] });
    const after = await anchorSome(rotated, 2, "after");

    const keys = await rotated.publicKeys();
    expect(Object.keys(keys).sort()).toEqual([keyA.key_id, keyB.key_id].sort());
    const vkeys = await rotated.noteVerifierKeys();
    for (const [{ receipt, proof }, signer] of [...before.map((x) => [x, keyA] as const), ...after.map((x) => [x, keyB] as const)]) {
      expect(receipt.key_id).toBe(signer.key_id);
      expect(await verifyAnchorProof(proof, keys[signer.key_id]!)).toBe(true);
      expect(await verifyAnchorProof(proof, vkeys[signer.key_id]!)).toBe(true);
      expect(await verifyAnchorProof(proof, { keys, note_verifier_keys: vkeys })).toBe(true);
      // The key set of another authority does not verify it.
      expect(await verifyAnchorProof(proof, { keys: { [signer.key_id]: (await new MemorySigner().load()).verifying.jwk }, note_verifier_keys: {} })).toBe(false);
      // The checkpoint alone, against each form of a key set: the key that signed it, a list holding it, the GET keys reply.
      const stranger = (await new MemorySigner().load()).verifying;
      const other = signer === keyA ? keyB : keyA;
      expect(await verifyCheckpointByAnyKey(proof.checkpoint, signer)).toBe(true);
      expect(await verifyCheckpointByAnyKey(proof.checkpoint, [stranger, other.jwk, vkeys[signer.key_id]!])).toBe(true);
      expect(await verifyCheckpointByAnyKey(proof.checkpoint, { keys, note_verifier_keys: vkeys })).toBe(true);
      expect(await verifyCheckpointByAnyKey(proof.checkpoint, [stranger, other])).toBe(false);
      expect(await verifyCheckpointByAnyKey(proof.checkpoint, [])).toBe(false);
      expect(await verifyCheckpointByAnyKey({ ...proof.checkpoint, tree_size: proof.checkpoint.tree_size + 1 }, signer)).toBe(false);
      // A verifier given every published vkey opens any checkpoint: the signature line's key ID picks the key.
      expect((await openTileCheckpoint(proof.checkpoint.note, Object.values(vkeys))).head.tree_size).toBe(proof.tree_size);
      expect(await rotated.verifyAnchored(receipt, proof)).toEqual({ signature: true, inclusion: true, chain: true, valid: true });
    }
    const [first, last] = [before.at(-1)!.proof, after.at(-1)!.proof];
    expect(last.checkpoint.origin).toBe(first.checkpoint.origin);
    const consistency = await rotated.getConsistencyProof(first.tile_id, first.tree_size, last.tree_size);
    expect(verifyConsistencyProof(consistency)).toBe(true);
    expect([consistency.first_root, consistency.second_root]).toEqual([first.root_hash, last.root_hash]);
    // A receipt the retired key signs now is not anchored: the key may have been retired because it leaked.
    const late = await authorityOver(new MemoryLogStore(), signerA).issueReceipt(
      createTsaeRequest(contextAt(T0, { zone: 3 }), { scope: "test.rotation.v1", action_hash_hex: sha256Hex("late") }),
    );
    await expect(rotated.anchor(late)).rejects.toMatchObject({ code: "RECEIPT_REJECTED" });
    // A retried anchor of a receipt A signed before the rotation answers with its proof.
    const retried = await rotated.anchor(plainCopy(before[0]!.receipt));
    expect([retried.receipt_hash, retried.leaf_index]).toEqual([before[0]!.proof.receipt_hash, before[0]!.proof.leaf_index]);
  });

  it("refuses a key that neither signed the log's last checkpoint nor lists the key that did (LOG_KEY_UNKNOWN)", async () => {
    const log = new MemoryLogStore();
    const [signerA, signerB, signerC] = [new MemorySigner(), new MemorySigner(), new MemorySigner()];
    const keyA = (await signerA.load()).verifying;
    await anchorSome(authorityOver(log, signerA, { authorityName: "rotation.example" }), 1, "a");
    await expect(authorityOver(log, signerC, { authorityName: "rotation.example" }).ready()).rejects.toMatchObject({
      code: "LOG_KEY_UNKNOWN",
      message: expect.stringMatching(/none of this node's keys \(signing key [0-9a-f]{16}, no previous keys\)\. Start the node with the key the clockchain is signed by/),
    });
    await anchorSome(authorityOver(log, signerB, { authorityName: "rotation.example", previousKeys: [keyA] }), 1, "b");
    // The log's last checkpoint is now B's: A listed alone does not make C its successor.
    await expect(authorityOver(log, signerC, { authorityName: "rotation.example", previousKeys: [keyA] }).ready()).rejects.toMatchObject({ code: "LOG_KEY_UNKNOWN" });
  });

  it("refuses a key the log has moved past, even with the key that did listed as previous (LOG_KEY_RETIRED)", async () => {
    const log = new MemoryLogStore();
    const [signerA, signerB] = [new MemorySigner(), new MemorySigner()];
    const [keyA, keyB] = [(await signerA.load()).verifying, (await signerB.load()).verifying];
    await anchorSome(authorityOver(log, signerA, { authorityName: "rotation.example" }), 1, "a");
    await anchorSome(authorityOver(log, signerB, { authorityName: "rotation.example", previousKeys: [keyA] }), 1, "b");
    await expect(authorityOver(log, signerA, { authorityName: "rotation.example", previousKeys: [keyB] }).ready()).rejects.toMatchObject({
      code: "LOG_KEY_RETIRED",
      message: expect.stringContaining(`a later key (${keyB.key_id}) signed after it`),
    });
  });

  it("refuses a rotation that would change the log's origin, naming the authority name to configure (AUTHORITY_NAME_CHANGED)", async () => {
    const log = new MemoryLogStore();
    const [signerA, signerB] = [new MemorySigner(), new MemorySigner()];
    const keyA = (await signerA.load()).verifying;
    // The default authority name derives from the key.
    await anchorSome(authorityOver(log, signerA), 1, "a");
    await expect(authorityOver(log, signerB, { previousKeys: [keyA] }).ready()).rejects.toMatchObject({
      code: "AUTHORITY_NAME_CHANGED",
      message: expect.stringContaining(`configure the authority name "temporal-authority/${keyA.key_id}"`),
    });
    const { proof } = await anchorOne(authorityOver(log, signerB, { previousKeys: [keyA], authorityName: `temporal-authority/${keyA.key_id}` }), "b");
    expect(proof.checkpoint.origin).toBe(`temporal-authority/${keyA.key_id}/tile/${proof.tile_id}`);
    // Dropping the configured name would change the origin too, whoever signed last: B did, under A's default name.
    await expect(authorityOver(log, signerB, { previousKeys: [keyA] }).ready()).rejects.toMatchObject({ code: "AUTHORITY_NAME_CHANGED" });
  });

  it("refuses an unconfigured name that differs from the log's even when the same key signed last (AUTHORITY_NAME_CHANGED)", async () => {
    const log = new MemoryLogStore();
    const signer = new MemorySigner();
    await anchorSome(authorityOver(log, signer, { authorityName: "rotation.example" }), 1, "named");
    await expect(authorityOver(log, signer).ready()).rejects.toMatchObject({
      code: "AUTHORITY_NAME_CHANGED",
      message: expect.stringContaining('configure the authority name "rotation.example"'),
    });
    await expect(authorityOver(log, signer, { authorityName: "rotation.example" }).ready()).resolves.toBeUndefined();
  });
});

describe("key rotation within one log (file store)", () => {
  it("a local authority opens a home whose key file was replaced, given the retired key and the log's authority name", async () => {
    const home = await tempDir();
    const paths = homePaths(home);
    const named = { home, clock: () => T0, authorityName: "rotation.example" };
    const first = createLocalAuthority(named);
    const [before] = await anchorSome(first, 1, "a");
    await first.close();
    const retired = `${home}/retired-key.pem`;
    await rename(paths.signingKey, retired);
    await createSigningKeyFile(paths.signingKey);
    const keyA = await readVerifyingKeyFile(retired);
    const without = createLocalAuthority(named);
    await expect(without.ready()).rejects.toMatchObject({ code: "LOG_KEY_UNKNOWN" });
    await without.close();
    const rotated = createLocalAuthority({ ...named, previousKeys: [keyA] });
    const [after] = await anchorSome(rotated, 1, "b");
    expect(after!.receipt.key_id).not.toBe(keyA.key_id);
    expect((await rotated.verifyAnchored(before!.receipt, before!.proof)).valid).toBe(true);
    await rotated.close();
  });

  it("refuses a ledger whose checkpoints return to a key it moved past (A, B, A, B: LEDGER_CORRUPT, reason KEY_RETIRED)", async () => {
    const paths = homePaths(await tempDir());
    const [signerA, signerB] = [new MemorySigner(), new MemorySigner()];
    const [a, b] = [await signerA.load(), await signerB.load()];
    const issuer = authorityOver(new MemoryLogStore(), signerA, { authorityName: "rotation.example" });
    // The store appends with whatever signing it is handed: a leaked A in the hands of a writer past the authority's checks.
    const store = new FileLogStore(paths);
    await store.open(b.verifying, [a.verifying]);
    for (const [i, k] of [a, b, a, b].entries()) {
      const receipt = await issuer.issueReceipt(createTsaeRequest(contextAt(T0, { zone: 3 }), { scope: "test.rotation.v1", action_hash_hex: sha256Hex(`abab ${i}`) }));
      await store.append([{ receipt, hash: receiptHash(receipt) }], { key: k.verifying, authority_name: "rotation.example", issuedUnixMs: () => T0, sign: (m) => k.sign(m) });
    }
    await store.close();
    const reopened = new FileLogStore(paths);
    await expect(reopened.open(b.verifying, [a.verifying])).rejects.toMatchObject({ code: "LEDGER_CORRUPT", reason: "KEY_RETIRED" });
    await reopened.close();
    await expect(checkLedgerFile(paths.ledger, b.verifying, { previousKeys: [a.verifying] })).rejects.toMatchObject({ code: "LEDGER_CORRUPT", reason: "KEY_RETIRED" });
  });

  it("opens a log whose tiles' latest checkpoints two keys signed, from its stored state and from its records, and checks the ledger file with both", async () => {
    const home = await tempDir();
    const paths = homePaths(home);
    // A snapshot after every record, so that reopening reads the stored state and not only the records.
    const fileAuthority = (signer: MemorySigner, previousKeys: readonly VerifyingKey[] = []) =>
      authorityOver(new FileLogStore(paths, { snapshotEveryRecords: 1 }), signer, { authorityName: "rotation.example", previousKeys });
    const [signerA, signerB, signerC] = [new MemorySigner(), new MemorySigner(), new MemorySigner()];
    const [keyA, keyB] = [(await signerA.load()).verifying, (await signerB.load()).verifying];
    const first = fileAuthority(signerA);
    const before = [...(await anchorSome(first, 2, "a")), ...(await anchorSome(first, 1, "a", 7))];
    await first.close();
    const second = fileAuthority(signerB, [keyA]);
    const after = await anchorSome(second, 2, "b");
    await second.close();
    // The stored state is usable with both keys (its heads are checked without replaying), and only with both.
    const ledger = await open(paths.ledger, "r");
    const restore = async (keys: LogKeys) => {
      const restored = await restoreSnapshot(paths, ledger, (await ledger.stat()).size, keys, new BlockCache(64));
      if (typeof restored !== "string") restored.files.close();
      // Usable: which keys it says the log moved past.
      return typeof restored === "string" ? restored : restored.state.retiredKeys;
    };
    expect(await restore(new LogKeys(keyB, [keyA]))).toEqual([keyA.key_id]);
    expect(await restore(new LogKeys(keyB))).toBe("unusable");
    await ledger.close();

    // Zone 7's latest checkpoint is A's, zone 3's is B's.
    const reopened = fileAuthority(signerB, [keyA]);
    for (const { receipt, proof } of [...before, ...after]) expect((await reopened.verifyAnchored(receipt, proof)).valid).toBe(true);
    const consistency = await reopened.getConsistencyProof(before[1]!.proof.tile_id, before[1]!.proof.tree_size, after[1]!.proof.tree_size);
    expect([consistency.first_root, consistency.second_root]).toEqual([before[1]!.proof.root_hash, after[1]!.proof.root_hash]);
    await reopened.close();
    const refused = fileAuthority(signerC, [keyA]);
    await expect(refused.ready()).rejects.toMatchObject({ code: "LOG_KEY_UNKNOWN" });
    await refused.close();
    // Back to A once B signed: refused from the stored state and from the records alike.
    for (const snapshotEveryRecords of [1, 1_000_000]) {
      const back = authorityOver(new FileLogStore(paths, { snapshotEveryRecords }), signerA, { authorityName: "rotation.example", previousKeys: [keyB] });
      await expect(back.ready()).rejects.toMatchObject({ code: "LOG_KEY_RETIRED", message: expect.stringContaining(`moved past this node's signing key ${keyA.key_id}`) });
      await back.close();
    }

    expect(await checkLedgerFile(paths.ledger, keyB, { previousKeys: [keyA] })).toMatchObject({ records: 5, anchors: 5 });
    await expect(checkLedgerFile(paths.ledger, keyB)).rejects.toMatchObject({ code: "LOG_KEY_UNKNOWN" });
  });
});

describe("ClockchainState across rotations (property)", () => {
  /** Unsigned receipts suffice: the state hashes them, it does not check their signatures. */
  const entry = (n: number, tile: number): LogEntry => {
    const receipt = { scope: "test.rotation.v1", tile_id: 240_000 + tile, action_hash_hex: sha256Hex(`rotation ${n}`), signature: "0".repeat(128) } as unknown as Receipt;
    return { receipt, hash: receiptHash(receipt) };
  };
  const signers = Array.from({ length: 4 }, () => new MemorySigner());
  const rejectWith = (reason: string, detail: string) => Object.assign(new Error(detail), { reason });

  /** Index of the first record signed by a key the log had moved past (A, B, A: 2), or -1. */
  const firstReturn = (plan: readonly { key: number }[]): number =>
    plan.findIndex((record, i) => i > 0 && record.key !== plan[i - 1]!.key && plan.slice(0, i).some((earlier) => earlier.key === record.key));

  it("a log whose keys never return to one it moved past replays with exactly those keys; a return is refused at the latest there; without a key it stops, unchanged, at that key's first record", async () => {
    const keys = await Promise.all(signers.map(async (signer) => await signer.load()));
    // Each record: the key that signs it (by index) and the tiles its anchors go to.
    const records = fc.array(fc.record({ key: fc.integer({ min: 0, max: 3 }), tiles: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }) }), {
      minLength: 1,
      maxLength: 8,
    });
    await fc.assert(
      fc.asyncProperty(records, fc.integer({ min: 0, max: 3 }), async (plan, left) => {
        const writer = new ClockchainState();
        const bodies: RecordBody[] = [];
        let n = 0;
        for (const { key, tiles } of plan) {
          const k = keys[key]!;
          const leaves = writer.stage(tiles.map((tile) => entry(n++, tile)));
          const signed = await writer.signHeads(leaves, { key: k.verifying, authority_name: "rotation.example", issuedUnixMs: () => T0, sign: (m) => k.sign(m) });
          writer.publish(leaves, signed);
          bodies.push(ClockchainState.recordOf(leaves, signed.heads));
        }
        const used = [...new Set(plan.map((record) => record.key))].map((i) => keys[i]!.verifying);
        const last = keys[plan.at(-1)!.key]!.verifying;
        const returns = firstReturn(plan);

        const reader = new ClockchainState();
        let refused: unknown;
        try {
          for (const body of bodies) for (const check of reader.replay(body, new LogKeys(last, used), rejectWith)) expect(await check.valid).toBe(true);
        } catch (error) {
          refused = error;
        }
        if (returns < 0) {
          expect(refused).toBeUndefined();
          expect(reader.tiles()).toEqual(writer.tiles());
          expect(reader.headHashAt(reader.lastCheckpoint!.sequence)).toBe(writer.headHashAt(writer.lastCheckpoint!.sequence));
          expect(reader.retiredKeys.toSorted()).toEqual(
            used
              .filter((key) => key !== last)
              .map((key) => key.key_id)
              .sort(),
          );
          // The current key the log moved past is refused, whatever else is listed.
          const retired = used.find((key) => key !== last);
          if (retired !== undefined) expect(() => reader.assertSignsNext(new LogKeys(retired, used))).toThrow(expect.objectContaining({ code: "LOG_KEY_RETIRED" }));
        } else {
          // A return to a retired key (KEY_RETIRED), or the current key, which is the returning one, moved past first (LOG_KEY_RETIRED).
          expect(refused).toSatisfy((error: { reason?: string; code?: string }) => error.reason === "KEY_RETIRED" || error.code === "LOG_KEY_RETIRED");
          expect(reader.records).toBeLessThanOrEqual(returns);
        }

        // Leave one key out (as current or previous, whichever it was): the first record it signed is refused as LOG_KEY_UNKNOWN.
        if (returns >= 0) return;
        const missing = keys[left]!.verifying;
        // The latest key held signs next (`used` is in signing order): the reader never moves past its own key before the missing one's record.
        const held = used.filter((key) => key !== missing).reverse();
        if (held.length === 0) held.push(keys[(left + 1) % keys.length]!.verifying);
        const partial = new ClockchainState();
        const firstByMissing = plan.findIndex((record) => record.key === left);
        for (const [i, body] of bodies.entries()) {
          if (i === firstByMissing) {
            expect(() => partial.replay(body, new LogKeys(held[0]!, held.slice(1)), rejectWith)).toThrow(expect.objectContaining({ code: "LOG_KEY_UNKNOWN" }));
            break;
          }
          partial.replay(body, new LogKeys(held[0]!, held.slice(1)), rejectWith);
        }
        expect(partial.records).toBe(firstByMissing < 0 ? bodies.length : firstByMissing);
        expect(partial.anchors).toBe(bodies.slice(0, partial.records).reduce((sum, body) => sum + body.anchors.length, 0));
      }),
      { numRuns: 60 },
    );
  });

  it("refuses A, B, A: KEY_RETIRED when the log moved past A, LOG_KEY_RETIRED when the reader's own key A is the one moved past", async () => {
    const [a, b] = await Promise.all(signers.slice(0, 2).map(async (signer) => await signer.load()));
    const writer = new ClockchainState();
    const bodies: RecordBody[] = [];
    for (const [i, k] of [a!, b!, a!].entries()) {
      const leaves = writer.stage([entry(1000 + i, 0)]);
      const signed = await writer.signHeads(leaves, { key: k.verifying, authority_name: "rotation.example", issuedUnixMs: () => T0, sign: (m) => k.sign(m) });
      writer.publish(leaves, signed);
      bodies.push(ClockchainState.recordOf(leaves, signed.heads));
    }
    const asB = new ClockchainState();
    const keysB = new LogKeys(b!.verifying, [a!.verifying]);
    asB.replay(bodies[0]!, keysB, rejectWith);
    asB.replay(bodies[1]!, keysB, rejectWith);
    expect(() => asB.replay(bodies[2]!, keysB, rejectWith)).toThrow(expect.objectContaining({ reason: "KEY_RETIRED" }));
    expect(asB.records).toBe(2);
    const asA = new ClockchainState();
    const keysA = new LogKeys(a!.verifying, [b!.verifying]);
    asA.replay(bodies[0]!, keysA, rejectWith);
    expect(() => asA.replay(bodies[1]!, keysA, rejectWith)).toThrow(expect.objectContaining({ code: "LOG_KEY_RETIRED" }));
    expect(asA.records).toBe(1);
  });
});

describe("LogKeys", () => {
  it("finds the key a checkpoint's signature line names, and leaves out the current key and repeats among the previous keys", async () => {
    const [signerA, signerB] = [new MemorySigner(), new MemorySigner()];
    const [keyA, keyB] = [(await signerA.load()).verifying, (await signerB.load()).verifying];
    const keys = new LogKeys(keyB, [keyA, keyB, keyA]);
    expect(keys.all).toEqual([keyB, keyA]);
    expect(keys.byId(keyA.key_id)).toBe(keyA);
    expect(keys.byId("0".repeat(16))).toBeUndefined();
    expect(keys.equals(new LogKeys(keyB, [keyA]))).toBe(true);
    expect(keys.equals(new LogKeys(keyA, [keyB]))).toBe(false);
    const { proof } = await anchorOne(authorityOver(new MemoryLogStore(), signerA, { authorityName: "keys.example" }), "x");
    const { checkpoint } = proof;
    expect(keys.signatureOf(parseNote(checkpoint.note), checkpoint.origin)?.key).toBe(keyA);
    expect(new LogKeys(keyB).signatureOf(parseNote(checkpoint.note), checkpoint.origin)).toBeUndefined();
  });
});
