import { cp } from "node:fs/promises";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  KERNEL_VERSION,
  contextAt,
  createTsaeRequest,
  signedCheckpointHash,
  receiptHash,
  sha256Hex,
  verifyConsistencyProof,
  type AnchorProof,
  type Receipt,
  type SignedCheckpoint,
} from "../src/index.js";
import type { LocalAuthority } from "../src/node/index.js";
import { tempDir, withAuthority, withEditedIssuedTime } from "./helpers.js";

const T0 = Date.UTC(2025, 8, 9, 10);
const tileOf = (zone: number) => contextAt(T0, { zone }).tile_id;
const request = (n: number, zone = 1) => createTsaeRequest(contextAt(T0, { zone }), { scope: "test.query.v1", action_hash_hex: sha256Hex(`action ${n}`) });

/** Anchors `count` receipts in `zone`, in groups of `group` concurrent anchors (one record each). */
async function anchorMany(authority: LocalAuthority, count: number, zone = 1, group = 1): Promise<{ receipt: Receipt; proof: AnchorProof }[]> {
  const out: { receipt: Receipt; proof: AnchorProof }[] = [];
  for (let start = 0; start < count; start += group) {
    const receipts = await Promise.all(Array.from({ length: Math.min(group, count - start) }, (_, i) => authority.issueReceipt(request(zone * 10_000 + start + i, zone))));
    const proofs = await Promise.all(receipts.map((receipt) => authority.anchor(receipt)));
    receipts.forEach((receipt, i) => out.push({ receipt, proof: proofs[i] as AnchorProof }));
  }
  return out;
}

describe("consistency proofs from the ledger", () => {
  it("prove every earlier signed head's root is a prefix of every later one, across reopening", async () => {
    const home = await tempDir();
    const tile = tileOf(1);
    const anchored = await withAuthority(home, T0, (authority) => anchorMany(authority, 20, 1, 3));
    await withAuthority(home, T0, async (authority) => {
      const heads = [...new Map(anchored.map(({ proof }) => [proof.checkpoint.tree_size, proof.checkpoint])).values()];
      for (const older of heads) {
        for (const newer of heads.filter((h) => h.tree_size >= older.tree_size)) {
          const proof = await authority.getConsistencyProof(tile, older.tree_size, newer.tree_size);
          expect(proof).toMatchObject({ tile_id: tile, first: older.tree_size, second: newer.tree_size, first_root: older.root_hash, second_root: newer.root_hash });
          expect(verifyConsistencyProof(proof)).toBe(true);
        }
      }
      // Sizes in between heads work too: every prefix of the tile is a tree.
      expect(verifyConsistencyProof(await authority.getConsistencyProof(tile, 5, 19))).toBe(true);
      expect((await authority.getConsistencyProof(tile, 20, 20)).proof).toEqual([]);
    });
  });

  it("refuses unknown tiles, sizes out of range and bad tile ids", async () => {
    await withAuthority(await tempDir(), T0, async (authority) => {
      await anchorMany(authority, 4);
      const tile = tileOf(1);
      for (const [first, second] of [
        [0, 4],
        [1, 5],
        [3, 2],
        [1.5, 4],
        [1, Number.NaN],
        [Number.NaN, 1],
        ["1", 4],
      ] as const) {
        await expect(authority.getConsistencyProof(tile, first as number, second)).rejects.toMatchObject({ code: "INVALID_TREE_SIZE", name: "TemporalRangeError" });
      }
      await expect(authority.getConsistencyProof(tile + 1, 1, 1)).rejects.toMatchObject({ code: "INVALID_TREE_SIZE" });
      await expect(authority.getConsistencyProof(-1, 1, 1)).rejects.toMatchObject({ code: "INVALID_TILE" });
    });
  });
});

describe("listAnchorPage", () => {
  it("pages through a tile exactly as listAnchors lists it", async () => {
    await withAuthority(await tempDir(), T0, async (authority) => {
      await anchorMany(authority, 23, 1, 5);
      const tile = tileOf(1);
      const all = await authority.listAnchors(tile);
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 30 }), async (offset, limit) => {
          const page = await authority.listAnchorPage(tile, { offset, limit });
          expect(page).toEqual({
            tile_id: tile,
            total: 23,
            offset,
            anchors: all.slice(offset, offset + limit),
            next_offset: offset + limit < 23 ? offset + limit : null,
          });
        }),
        { numRuns: 100 },
      );
      // Following next_offset visits every anchor once.
      const seen = [];
      for (let offset: number | null = 0; offset !== null;) {
        const page = await authority.listAnchorPage(tile, { offset, limit: 7 });
        seen.push(...page.anchors);
        offset = page.next_offset;
      }
      expect(seen).toEqual(all);
      expect(await authority.listAnchorPage(tile)).toMatchObject({ offset: 0, total: 23, next_offset: null });
      expect((await authority.listAnchorPage(tile)).anchors).toHaveLength(23);
    });
  });

  it("gives an empty page for a tile without anchors and refuses bad arguments", async () => {
    await withAuthority(await tempDir(), T0, async (authority) => {
      expect(await authority.listAnchorPage(5, { offset: 10 })).toEqual({ tile_id: 5, total: 0, offset: 10, anchors: [], next_offset: null });
      for (const options of [{ limit: 0 }, { limit: 1001 }, { limit: 2.5 }, { offset: -1 }, { offset: 0.5 }, { offset: Number.NaN }, { limit: "10" }]) {
        await expect(authority.listAnchorPage(5, options as { limit?: number })).rejects.toMatchObject({ code: "INVALID_PAGE", name: "TemporalRangeError" });
      }
      expect((await authority.listAnchorPage(5, { limit: 1000 })).total).toBe(0);
      await expect(authority.listAnchorPage(-2)).rejects.toMatchObject({ code: "INVALID_TILE" });
    });
  });
});

describe("clockchainStatus", () => {
  it("reports tiles by id with their signed size and root, the last head, and no paths", async () => {
    const home = await tempDir();
    await withAuthority(home, T0, async (authority) => {
      expect(await authority.clockchainStatus()).toEqual({
        kernel_version: KERNEL_VERSION,
        chain_valid: true,
        tiles: [],
        anchors: 0,
        last_checkpoint: null,
        store: { kind: "file", records: 0 },
        recovered: null,
      });
      await anchorMany(authority, 3, 7);
      await anchorMany(authority, 2, 2);
      const last = await anchorMany(authority, 1, 7);
      const status = await authority.clockchainStatus();
      const legacy = await authority.status();
      expect(status).toMatchObject({ chain_valid: true, anchors: 6, store: { kind: "file", records: legacy.records }, recovered: null });
      expect(status.last_checkpoint).toEqual(last[0]?.proof.checkpoint);
      expect(status.tiles).toEqual([
        { tile_id: tileOf(2), tree_size: 2, root_hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
        { tile_id: tileOf(7), tree_size: 4, root_hash: last[0]?.proof.root_hash },
      ]);
      expect(JSON.stringify(status)).not.toContain(home);
    });
    await withAuthority(home, T0, async (authority) => {
      expect((await authority.clockchainStatus()).chain_valid).toBe(true);
    });
  });
});

describe("verifyAnchored", () => {
  it("is valid for an anchored receipt and its proof, also an older proof after the tile grew", async () => {
    const home = await tempDir();
    const [first] = await withAuthority(home, T0, (authority) => anchorMany(authority, 3));
    await withAuthority(home, T0, async (authority) => {
      await anchorMany(authority, 2, 4);
      const { receipt, proof } = first as { receipt: Receipt; proof: AnchorProof };
      const all = { signature: true, inclusion: true, chain: true, valid: true };
      expect(await authority.verifyAnchored(receipt, proof)).toEqual(all);
      const latest = (await authority.getAnchorProof(receiptHash(receipt))) as AnchorProof;
      expect(latest.tree_size).toBe(3);
      expect(await authority.verifyAnchored(JSON.parse(JSON.stringify(receipt)), JSON.parse(JSON.stringify(latest)))).toEqual(all);
    });
  });

  it("names the check that fails: signature, inclusion or chain", async () => {
    const [a, b] = await withAuthority(await tempDir(), T0, (authority) => anchorMany(authority, 2));
    const foreignHome = await tempDir();
    await withAuthority(foreignHome, T0, async (foreign) => {
      const [other] = await anchorMany(foreign, 1);
      const { receipt, proof } = a as { receipt: Receipt; proof: AnchorProof };
      // Verified by an authority that never issued or anchored them: nothing holds.
      expect(await foreign.verifyAnchored(receipt, proof)).toEqual({ signature: false, inclusion: true, chain: false, valid: false });
      expect((await foreign.verifyAnchored(other?.receipt, other?.proof)).valid).toBe(true);
      // Another receipt of this authority with a's proof: signed, but not the proof's leaf.
      expect(await foreign.verifyAnchored(other?.receipt, { ...proof })).toMatchObject({ signature: true, inclusion: false, chain: false });
      expect(await foreign.verifyAnchored(other?.receipt, b?.proof)).toMatchObject({ signature: true, inclusion: false });
    });
    await withAuthority(foreignHome, T0, async (authority) => {
      const [one, two] = await anchorMany(authority, 2, 9);
      const { receipt, proof } = one as { receipt: Receipt; proof: AnchorProof };
      const tamperedReceipt = { ...receipt, scope: "test.other.v1" };
      expect(await authority.verifyAnchored(tamperedReceipt, proof)).toEqual({ signature: false, inclusion: false, chain: true, valid: false });
      // A checkpoint re-signed with a different time would need the key; an edited note fails its signature.
      const editedHead = withEditedIssuedTime(proof.checkpoint, proof.checkpoint.issued_unix_ms + 1);
      expect(await authority.verifyAnchored(receipt, { ...proof, checkpoint: editedHead })).toEqual({ signature: true, inclusion: true, chain: false, valid: false });
      // A parsed view that does not match its note: not a checkpoint at all.
      const misread = { ...proof.checkpoint, issued_unix_ms: proof.checkpoint.issued_unix_ms + 1 };
      expect(await authority.verifyAnchored(receipt, { ...proof, checkpoint: misread })).toEqual({ signature: true, inclusion: false, chain: false, valid: false });
      // A genuine head of this ledger that does not cover the proof's root.
      expect(await authority.verifyAnchored(receipt, { ...proof, checkpoint: two?.proof.checkpoint })).toMatchObject({ signature: true, inclusion: false, chain: false });
      const path = proof.inclusion_proof;
      expect(await authority.verifyAnchored(receipt, { ...proof, leaf_index: proof.leaf_index + 1, inclusion_proof: path })).toMatchObject({ inclusion: false, chain: true });
    });
  });

  it("rejects a correctly signed head this ledger does not hold at that sequence (a fork)", async () => {
    const home = await tempDir();
    const fork = await tempDir();
    await withAuthority(home, T0, (authority) => anchorMany(authority, 1));
    await cp(home, fork, { recursive: true });
    const [ours] = await withAuthority(home, T0, (authority) => anchorMany(authority, 1, 3));
    const [theirs] = await withAuthority(fork, T0, (authority) => anchorMany(authority, 1, 6));
    await withAuthority(home, T0, async (authority) => {
      expect(theirs?.proof.checkpoint.sequence).toBe(ours?.proof.checkpoint.sequence);
      expect(signedCheckpointHash(theirs?.proof.checkpoint as SignedCheckpoint)).not.toBe(signedCheckpointHash(ours?.proof.checkpoint as SignedCheckpoint));
      expect(await authority.verifyAnchored(ours?.receipt, ours?.proof)).toMatchObject({ valid: true });
      expect(await authority.verifyAnchored(theirs?.receipt, theirs?.proof)).toEqual({ signature: true, inclusion: true, chain: false, valid: false });
    });
  });

  it("never throws on arbitrary input", async () => {
    await withAuthority(await tempDir(), T0, async (authority) => {
      const [anchored] = await anchorMany(authority, 1);
      const { receipt, proof } = anchored as { receipt: Receipt; proof: AnchorProof };
      const mangle = (value: unknown) =>
        fc.oneof(
          fc.anything(),
          fc.constant(value),
          fc.dictionary(fc.constantFrom(...Object.keys(value as object), "extra"), fc.anything()).map((patch) => ({ ...(value as object), ...patch })),
        );
      await fc.assert(
        fc.asyncProperty(mangle(receipt), mangle(proof), async (r, p) => {
          const result = await authority.verifyAnchored(r, p);
          expect(result.valid).toBe(result.signature && result.inclusion && result.chain);
          if (r !== receipt || p !== proof) expect(Object.values(result).every((v) => typeof v === "boolean")).toBe(true);
        }),
        { numRuns: 300 },
      );
      const signedHead = proof.checkpoint;
      for (const p of [null, 7, "x", [], { checkpoint: null }, { checkpoint: { ...signedHead, sequence: -1 } }, { ...proof, checkpoint: { ...signedHead, sequence: 1e300 } }]) {
        expect(await authority.verifyAnchored(receipt, p)).toMatchObject({ inclusion: false, chain: false, valid: false });
      }
    });
  });
});
