import { describe, expect, it } from "vitest";
import {
  GENESIS_CHECKPOINT_HASH,
  contextAt,
  createMemoryAuthority,
  createTsaeRequest,
  signedCheckpointHash,
  sha256Hex,
  verifyAnchorProof,
  verifyConsistencyProof,
  verifyReceipt,
  type ComposedAuthority,
  type PublicKeyJwk,
  type Receipt,
} from "../src/index.js";
import { createLocalAuthority } from "../src/node/index.js";
import { tempDir, withEditedIssuedTime } from "./helpers.js";

const T0 = Date.UTC(2025, 10, 3, 21);
const request = (n: number, zone = 4) => createTsaeRequest(contextAt(T0 + n, { zone }), { scope: "test.contract.v1", action_hash_hex: sha256Hex(`contract ${n}`) });

type Clock = { now: number | Date };
/** The authorities that must behave alike: the file-backed local one and the in-memory one. */
const kinds: [string, (clock: Clock) => Promise<ComposedAuthority>][] = [
  ["local", async (clock) => createLocalAuthority({ home: await tempDir(), clock: () => clock.now })],
  ["memory", async (clock) => createMemoryAuthority({ clock: () => clock.now })],
];

describe.each(kinds)("authority contract: %s", (kind, make) => {
  async function withAuthority<T>(use: (authority: ComposedAuthority, clock: Clock) => Promise<T>): Promise<T> {
    const clock: Clock = { now: T0 };
    const authority = await make(clock);
    try {
      return await use(authority, clock);
    } finally {
      await authority.close();
    }
  }

  const keyOf = async (authority: ComposedAuthority) => Object.values(await authority.publicKeys())[0] as PublicKeyJwk;

  it("issues receipts and anchor proofs that verify with its one published key, heads chained from genesis", async () => {
    await withAuthority(async (authority, clock) => {
      await authority.ready();
      const jwk = await keyOf(authority);
      expect(Object.keys(await authority.publicKeys())).toEqual([jwk.kid]);
      const first = await authority.issueReceipt(request(1));
      expect(first).toMatchObject({ issued_unix_ms: T0, key_id: jwk.kid });
      expect(Object.isFrozen(first)).toBe(true);
      expect(await verifyReceipt(first, jwk)).toBe(true);
      clock.now = T0 + 5;
      const proof = await authority.anchor(first);
      expect(proof).toMatchObject({ leaf_index: 0, tree_size: 1, checkpoint: { sequence: 0, prev_checkpoint_hash: GENESIS_CHECKPOINT_HASH, issued_unix_ms: T0 + 5 } });
      expect(await verifyAnchorProof(proof, jwk)).toBe(true);
      const second = await authority.anchor(await authority.issueReceipt(request(2, 7)));
      expect(second.checkpoint).toMatchObject({ sequence: 1, prev_checkpoint_hash: signedCheckpointHash(proof.checkpoint) });
      expect(await authority.anchor(JSON.parse(JSON.stringify(first)) as Receipt)).toEqual(await authority.getAnchorProof(proof.receipt_hash));
      expect(await authority.listAnchors(first.tile_id)).toEqual([{ tile_id: first.tile_id, leaf_index: 0, receipt_hash: proof.receipt_hash, anchored_unix_ms: T0 + 5 }]);
      expect(await authority.getAnchorProof(sha256Hex("never"))).toBeUndefined();
      await expect(authority.getAnchorProof("nope")).rejects.toMatchObject({ code: "INVALID_HASH" });
      await expect(authority.listAnchors(-1)).rejects.toMatchObject({ code: "INVALID_TILE" });
    });
  });

  it("group-commits concurrent anchors, and every proof verifies", async () => {
    await withAuthority(async (authority) => {
      const jwk = await keyOf(authority);
      const receipts = await Promise.all(Array.from({ length: 64 }, (_, n) => authority.issueReceipt(request(n))));
      const proofs = await Promise.all(receipts.map((receipt) => authority.anchor(receipt)));
      expect(new Set(proofs.map((p) => p.leaf_index)).size).toBe(64);
      expect((await authority.clockchainStatus()).store.records).toBeLessThan(8);
      for (const proof of proofs) expect(await verifyAnchorProof((await authority.getAnchorProof(proof.receipt_hash)) as never, jwk)).toBe(true);
    });
  });

  it("refuses receipts that are malformed, tampered with or signed by another authority", async () => {
    const foreign = await withAuthority((authority) => authority.issueReceipt(request(1)));
    await withAuthority(async (authority) => {
      const own = await authority.issueReceipt(request(1));
      for (const bad of [foreign, { ...own, phi_action_ticks: own.phi_action_ticks + 1 }, { ...own, scope: "Bad" }]) {
        await expect(authority.anchor(bad)).rejects.toMatchObject({ code: "RECEIPT_REJECTED" });
      }
      expect((await authority.clockchainStatus()).anchors).toBe(0);
    });
  });

  it("uses each challenge once, before it expires, and only its own", async () => {
    const foreign = await withAuthority((authority) => authority.issueChallenge());
    await withAuthority(async (authority, clock) => {
      const challenge = await authority.issueChallenge({ ttlMs: 1_000 });
      const results = await Promise.allSettled([1, 2, 3, 4].map((n) => authority.issueReceipt(request(n), { challenge })));
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "CHALLENGE_UNKNOWN" });
      await expect(authority.issueReceipt(request(5), { challenge: foreign })).rejects.toMatchObject({ code: "CHALLENGE_INVALID" });
      const late = await authority.issueChallenge({ ttlMs: 1_000 });
      clock.now = T0 + 1_000;
      await expect(authority.issueReceipt(request(6), { challenge: late })).rejects.toMatchObject({ code: "CHALLENGE_EXPIRED" });
      await expect(authority.issueChallenge({ ttlMs: 10 })).rejects.toMatchObject({ code: "INVALID_TTL" });
    });
  });

  it("answers pages, consistency proofs, status and verification from its clockchain", async () => {
    await withAuthority(async (authority) => {
      const receipts = await Promise.all([1, 2, 3].map((n) => authority.issueReceipt(request(n))));
      const [proof] = [await authority.anchor(receipts[0] as Receipt)];
      await Promise.all(receipts.slice(1).map((receipt) => authority.anchor(receipt)));
      const tile = (receipts[0] as Receipt).tile_id;
      expect(await authority.listAnchorPage(tile, { offset: 1, limit: 1 })).toMatchObject({ total: 3, next_offset: 2, anchors: [{ leaf_index: 1 }] });
      await expect(authority.listAnchorPage(tile, { limit: 0 })).rejects.toMatchObject({ code: "INVALID_PAGE" });
      expect(verifyConsistencyProof(await authority.getConsistencyProof(tile, 1, 3))).toBe(true);
      const status = await authority.clockchainStatus();
      expect(status).toMatchObject({
        chain_valid: true,
        anchors: 3,
        tiles: [{ tile_id: tile, tree_size: 3 }],
        store: { kind: kind === "local" ? "file" : "memory", records: 2 },
        recovered: null,
      });
      expect(await authority.verifyAnchored(receipts[0], proof)).toEqual({ signature: true, inclusion: true, chain: true, valid: true });
      const forged = { ...proof, checkpoint: withEditedIssuedTime(proof.checkpoint, 1) };
      expect(await authority.verifyAnchored(receipts[0], forged)).toMatchObject({ chain: false, valid: false });
      expect(await authority.verifyAnchored("junk", null)).toEqual({ signature: false, inclusion: false, chain: false, valid: false });
    });
  });

  it("refuses a clock reading a signed record cannot carry, in ready() and in the call that read it", async () => {
    await withAuthority(async (authority, clock) => {
      clock.now = new Date(Number.NaN);
      await expect(authority.ready()).rejects.toMatchObject({ code: "INVALID_TIME" });
      await expect(authority.issueReceipt(request(1))).rejects.toMatchObject({ code: "INVALID_TIME" });
      clock.now = T0;
      await authority.ready();
      const receipt = await authority.issueReceipt(request(1));
      clock.now = -1;
      await expect(authority.anchor(receipt)).rejects.toMatchObject({ code: "INVALID_TIME" });
      clock.now = T0 + 1;
      expect(await authority.anchor(receipt)).toMatchObject({ leaf_index: 0, checkpoint: { sequence: 0 } });
    });
  });

  it("finishes anchors in progress when closed, then refuses every call", async () => {
    const clock: Clock = { now: T0 };
    const authority = await make(clock);
    const receipts = await Promise.all([1, 2, 3].map((n) => authority.issueReceipt(request(n))));
    const anchoring = Promise.all(receipts.map((receipt) => authority.anchor(receipt)));
    await authority.close();
    expect(await anchoring).toHaveLength(3);
    expect(authority.closed).toBe(true);
    for (const call of [() => authority.now(), () => authority.publicKeys(), () => authority.ready(), () => authority.anchor(receipts[0] as Receipt)]) {
      await expect(call()).rejects.toMatchObject({ code: "AUTHORITY_CLOSED" });
    }
  });
});

describe("memory authority", () => {
  it("touches no file system and keeps its key for its lifetime", async () => {
    const authority = createMemoryAuthority();
    expect(authority.kind).toBe("local");
    expect(await authority.now()).toMatchObject({ source: "local" });
    const keys = await authority.publicKeys();
    expect(await authority.publicKeys()).toEqual(keys);
    const other = createMemoryAuthority();
    expect(Object.keys(await other.publicKeys())).not.toEqual(Object.keys(keys));
    await Promise.all([authority.close(), other.close()]);
  });
});
