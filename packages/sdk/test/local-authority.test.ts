import { existsSync } from "node:fs";
import { copyFile, link, readFile, rm, stat, symlink, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  GENESIS_CHECKPOINT_HASH,
  TsaeRequestError,
  contextAt,
  createTsaeRequest,
  signedCheckpointHash,
  sha256Hex,
  verifyAnchorProof,
  verifyInclusion,
  verifyReceipt,
  type AnchorProof,
  type PublicKeyJwk,
  type Receipt,
  type SignedCheckpoint,
} from "../src/index.js";
import { createLocalAuthority, type LocalAuthority } from "../src/node/index.js";
import { acquireLock } from "../src/node/lock.js";
import { tempDir, withAuthority, withEditedIssuedTime } from "./helpers.js";
import { exitedPid, lockRecord } from "./lock-processes.js";

const T0 = Date.UTC(2025, 4, 1, 12);
const ctx = contextAt(T0, { zone: 2 });
const request = (n: number, zone = 2) => createTsaeRequest(contextAt(T0 + n, { zone }), { scope: "test.anchor.v1", action_hash_hex: sha256Hex(`action ${n}`) });

async function issueAndAnchor(authority: LocalAuthority, n: number, zone = 2): Promise<{ receipt: Receipt; proof: AnchorProof }> {
  const receipt = await authority.issueReceipt(request(n, zone));
  return { receipt, proof: await authority.anchor(receipt) };
}

describe("local authority", () => {
  it("does nothing on disk until first use, then creates the home, a 0600 key and the ledger", async () => {
    const home = join(await tempDir(), "nested", "home");
    const authority = createLocalAuthority({ home });
    await authority.now();
    expect(existsSync(home)).toBe(false);
    await expect(authority.issueReceipt({ ...request(0), scope: "nope" })).rejects.toBeInstanceOf(TsaeRequestError);
    expect(existsSync(home)).toBe(false);
    await authority.issueReceipt(request(0));
    expect((await stat(join(home, "signing-key.pem"))).mode & 0o777).toBe(0o600);
    expect(existsSync(join(home, "clockchain.log"))).toBe(true);
    // The lock is taken only to create the key and to append, and released at once.
    expect(existsSync(join(home, "lock"))).toBe(false);
    await authority.anchor(await authority.issueReceipt(request(1)));
    expect(existsSync(join(home, "lock"))).toBe(false);
    await authority.close();
  });

  it("issues receipts that verify with its published key and anchors them with verifiable proofs", async () => {
    await withAuthority(await tempDir(), T0, async (authority) => {
      const keys = await authority.publicKeys();
      const [kid, jwk] = Object.entries(keys)[0] as [string, PublicKeyJwk];
      expect(jwk).toEqual({ kty: "OKP", crv: "Ed25519", x: expect.any(String), kid });
      const { receipt, proof } = await issueAndAnchor(authority, 1);
      expect(receipt.issued_unix_ms).toBe(T0);
      expect(await verifyReceipt(receipt, jwk)).toBe(true);
      expect(proof).toMatchObject({ tile_id: ctx.tile_id, leaf_index: 0, tree_size: 1, inclusion_proof: [] });
      expect(proof.checkpoint).toMatchObject({ tile_id: ctx.tile_id, origin: `temporal-authority/${kid}/tile/${ctx.tile_id}`, sequence: 0, prev_checkpoint_hash: GENESIS_CHECKPOINT_HASH });
      expect(verifyInclusion(proof)).toBe(true);
      expect(await verifyAnchorProof(proof, jwk)).toBe(true);
      const forged = { ...proof, checkpoint: withEditedIssuedTime(proof.checkpoint, proof.checkpoint.issued_unix_ms + 1) };
      expect(verifyInclusion(forged)).toBe(true);
      expect(await verifyAnchorProof(forged, jwk)).toBe(false);
    });
  });

  it("answers getAnchorProof and listAnchors, and anchoring twice returns the same leaf", async () => {
    await withAuthority(await tempDir(), T0, async (authority) => {
      const first = await issueAndAnchor(authority, 1);
      const second = await issueAndAnchor(authority, 2);
      expect(await authority.anchor(first.receipt)).toMatchObject({ leaf_index: 0, tree_size: 2 });
      expect(await authority.anchor(JSON.parse(JSON.stringify(first.receipt)) as Receipt)).toMatchObject({ leaf_index: 0 });
      expect(await authority.getAnchorProof(first.proof.receipt_hash)).toEqual(await authority.anchor(first.receipt));
      expect(await authority.getAnchorProof(sha256Hex("never anchored"))).toBeUndefined();
      const anchors = await authority.listAnchors(ctx.tile_id);
      expect(anchors).toEqual([
        { tile_id: ctx.tile_id, leaf_index: 0, receipt_hash: first.proof.receipt_hash, anchored_unix_ms: first.proof.checkpoint.issued_unix_ms },
        { tile_id: ctx.tile_id, leaf_index: 1, receipt_hash: second.proof.receipt_hash, anchored_unix_ms: second.proof.checkpoint.issued_unix_ms },
      ]);
      expect(await authority.listAnchors(ctx.tile_id + 1)).toEqual([]);
      await expect(authority.getAnchorProof("ABC")).rejects.toMatchObject({ code: "INVALID_HASH" });
      await expect(authority.listAnchors(-1)).rejects.toMatchObject({ code: "INVALID_TILE" });
    });
  });

  it("group-commits concurrent anchors into few records, all durable and verifiable", async () => {
    const home = await tempDir();
    const proofs = await withAuthority(home, T0, async (authority) => {
      const receipts = await Promise.all(Array.from({ length: 64 }, (_, n) => authority.issueReceipt(request(n))));
      const anchored = await Promise.all(receipts.map((receipt) => authority.anchor(receipt)));
      const status = await authority.status();
      expect(status.anchors).toBe(64);
      expect(status.records).toBeLessThan(8);
      return anchored;
    });
    const jwk = await withAuthority(home, T0, async (authority) => Object.values(await authority.publicKeys())[0] as PublicKeyJwk);
    expect(new Set(proofs.map((p) => p.leaf_index)).size).toBe(64);
    for (const proof of proofs) expect(await verifyAnchorProof(proof, jwk)).toBe(true);
  });

  it("links every signed head to the one before it, across tiles and across reopening", async () => {
    const home = await tempDir();
    const heads: SignedCheckpoint[] = [];
    await withAuthority(home, T0, async (authority) => {
      for (const zone of [2, 3, 2, 11]) heads.push((await issueAndAnchor(authority, heads.length, zone)).proof.checkpoint);
    });
    await withAuthority(home, T0, async (authority) => {
      expect((await authority.status()).last_checkpoint).toEqual(heads[3]);
      heads.push((await issueAndAnchor(authority, 10, 3)).proof.checkpoint);
    });
    expect(heads.map((h) => h.sequence)).toEqual([0, 1, 2, 3, 4]);
    expect(heads.map((h) => h.tree_size)).toEqual([1, 1, 2, 1, 2]);
    expect(heads[0]?.prev_checkpoint_hash).toBe(GENESIS_CHECKPOINT_HASH);
    for (let i = 1; i < heads.length; i++) expect(heads[i]?.prev_checkpoint_hash).toBe(signedCheckpointHash(heads[i - 1] as SignedCheckpoint));
  });

  it("keeps proofs, receipts and the key across reopening", async () => {
    const home = await tempDir();
    const first = await withAuthority(home, T0, (authority) => issueAndAnchor(authority, 1));
    const keyBefore = await readFile(join(home, "signing-key.pem"), "utf8");
    await withAuthority(home, T0, async (authority) => {
      expect(await authority.getAnchorProof(first.proof.receipt_hash)).toEqual(first.proof);
      const second = await issueAndAnchor(authority, 2);
      expect(second.proof).toMatchObject({ leaf_index: 1, tree_size: 2 });
    });
    expect(await readFile(join(home, "signing-key.pem"), "utf8")).toBe(keyBefore);
  });

  it("rejects receipts that are malformed, tampered with or signed by another authority", async () => {
    const foreign = await withAuthority(await tempDir(), T0, (authority) => authority.issueReceipt(request(1)));
    await withAuthority(await tempDir(), T0, async (authority) => {
      const own = await authority.issueReceipt(request(1));
      await expect(authority.anchor(foreign)).rejects.toMatchObject({ code: "RECEIPT_REJECTED" });
      await expect(authority.anchor({ ...own, phi_action_ticks: own.phi_action_ticks + 1, tile_id: own.tile_id })).rejects.toThrow(/does not verify/);
      await expect(authority.anchor({ ...own, scope: "Bad" })).rejects.toThrow(/scope "Bad" does not match/);
      expect((await authority.status()).anchors).toBe(0);
    });
  });

  it("takes the receipt as it was when anchor was called", async () => {
    await withAuthority(await tempDir(), T0, async (authority) => {
      const receipt = await authority.issueReceipt(request(1));
      const copy = { ...receipt };
      const anchoring = authority.anchor(copy);
      copy.scope = "changed.after.v1";
      const proof = await anchoring;
      expect(await authority.getAnchorProof(proof.receipt_hash)).toBeDefined();
      expect(proof.receipt_hash).toBe(sha256Hex(JSON.stringify(Object.fromEntries(Object.entries(receipt).sort()))));
    });
  });

  it("lets several authorities share a home, each reading what the others anchored", async () => {
    const home = await tempDir();
    const alias = join(await tempDir(), "alias");
    await symlink(home, alias);
    const [first, second] = [createLocalAuthority({ home }), createLocalAuthority({ home: alias })];
    try {
      const a = await issueAndAnchor(first, 1);
      const b = await issueAndAnchor(second, 2);
      expect(b.proof).toMatchObject({ leaf_index: 1, tree_size: 2, checkpoint: { sequence: 1, prev_checkpoint_hash: signedCheckpointHash(a.proof.checkpoint) } });
      expect(await first.getAnchorProof(b.proof.receipt_hash)).toEqual(b.proof);
      // Anchoring a receipt the other authority anchored returns its proof, and adds nothing.
      expect(await first.anchor(b.receipt)).toEqual(b.proof);
      expect(await second.anchor(a.receipt)).toMatchObject({ leaf_index: 0, tree_size: 2 });
      expect(await second.publicKeys()).toEqual(await first.publicKeys());
      expect((await first.status()).records).toBe(2);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("waits for the home's lock only to append: reads go on, and an append gives up with HOME_LOCKED after lockWaitMs", async () => {
    const home = await tempDir();
    const first = await withAuthority(home, T0, (authority) => issueAndAnchor(authority, 1));
    const held = await acquireLock(join(home, "lock"));
    const authority = createLocalAuthority({ home, lockWaitMs: 300 });
    try {
      expect(await authority.getAnchorProof(first.proof.receipt_hash)).toEqual(first.proof);
      const receipt = await authority.issueReceipt(request(2));
      await expect(authority.anchor(receipt)).rejects.toMatchObject({ code: "HOME_LOCKED" });
      await held.release();
      expect(await authority.anchor(receipt)).toMatchObject({ leaf_index: 1 });
    } finally {
      await held.release();
      await authority.close();
    }
  });

  it("refuses a ledger reached through a symbolic or hard link from another home", async () => {
    const owner = await tempDir();
    await withAuthority(owner, T0, (authority) => issueAndAnchor(authority, 1));
    const refused = (home: string) =>
      expect(withAuthority(home, T0, (authority) => authority.status())).rejects.toMatchObject({ code: "LEDGER_LINKED", message: expect.stringMatching(/belongs to one home/) });
    for (const [makeLink, what] of [
      [symlink, "symbolic link"],
      [link, "2 hard links"],
    ] as const) {
      const home = await tempDir();
      await copyFile(join(owner, "signing-key.pem"), join(home, "signing-key.pem"));
      await makeLink(join(owner, "clockchain.log"), join(home, "clockchain.log"));
      await refused(home);
      await expect(withAuthority(home, T0, (authority) => authority.status())).rejects.toThrow(what);
      // A hard link has no direction: the owner's own name for the file is refused too, until the other is removed.
      if (makeLink === link) await refused(owner);
      await unlink(join(home, "clockchain.log"));
      await withAuthority(owner, T0, async (authority) => expect((await authority.status()).anchors).toBe(1));
    }
  });

  it("takes over, to append, a lock left by a process that has exited or by an earlier process with this pid (a restarted container's pid 1)", async () => {
    const home = await tempDir();
    for (const [n, pid] of [exitedPid(), process.pid].entries()) {
      await writeFile(join(home, "lock"), lockRecord(pid));
      await withAuthority(home, T0, async (authority) => {
        expect((await issueAndAnchor(authority, n)).proof).toMatchObject({ leaf_index: n });
      });
      // Released after the append, as the lock is only held around one.
      expect(existsSync(join(home, "lock"))).toBe(false);
    }
  });

  it("rejects a clock reading that signed records cannot carry, only for the call that read it", async () => {
    const home = await tempDir();
    let reading: number | Date = T0;
    const authority = createLocalAuthority({ home, clock: () => reading });
    for (const bad of [-5000, Number.NaN, new Date(Number.NaN), 8.64e15 + 1]) {
      reading = bad;
      await expect(authority.issueReceipt(request(1))).rejects.toMatchObject({ code: "INVALID_TIME" });
    }
    reading = T0;
    const receipt = await authority.issueReceipt(request(1));
    for (const bad of [-1, Number.NaN]) {
      reading = bad;
      await expect(authority.anchor(receipt)).rejects.toMatchObject({ code: "INVALID_TIME" });
    }
    reading = T0 + 5;
    expect(await authority.anchor(receipt)).toMatchObject({ leaf_index: 0, checkpoint: { sequence: 0, issued_unix_ms: T0 + 5 } });
    await authority.close();
    await withAuthority(home, T0, async (reopened) => expect((await reopened.status()).anchors).toBe(1));
  });

  it("signs a request exactly as it validated it, reading each field once", async () => {
    await withAuthority(await tempDir(), T0, async (authority) => {
      const [jwk] = Object.values(await authority.publicKeys()) as [PublicKeyJwk];
      let reads = 0;
      const shifty = { ...request(1) };
      Object.defineProperty(shifty, "swt_zone", { enumerable: true, get: () => (++reads > 1 ? 7 : 2) });
      const receipt = await authority.issueReceipt(shifty);
      expect(reads).toBe(1);
      expect(receipt).toMatchObject({ swt_zone: 2, tile_id: request(1).tile_id });
      expect(await verifyReceipt(receipt, jwk)).toBe(true);

      reads = 0;
      const copy = { ...receipt };
      Object.defineProperty(copy, "scope", { enumerable: true, get: () => (++reads > 1 ? "Bad" : receipt.scope) });
      expect(await authority.anchor(copy)).toMatchObject({ receipt_hash: sha256Hex(JSON.stringify(Object.fromEntries(Object.entries(receipt).sort()))) });
      expect(reads).toBe(1);
    });
  });

  it("refuses to mint a new key next to a ledger that has records", async () => {
    const home = await tempDir();
    await withAuthority(home, T0, (authority) => issueAndAnchor(authority, 1));
    await unlink(join(home, "signing-key.pem"));
    await expect(withAuthority(home, T0, (authority) => authority.publicKeys())).rejects.toMatchObject({ code: "KEY_MISSING" });
    expect(existsSync(join(home, "signing-key.pem"))).toBe(false);
  });

  it("reports an unreadable key", async () => {
    const home = await tempDir();
    await withAuthority(home, T0, (authority) => authority.publicKeys());
    await writeFile(join(home, "signing-key.pem"), "not a key");
    await expect(withAuthority(home, T0, (authority) => authority.publicKeys())).rejects.toMatchObject({ code: "KEY_INVALID" });
    await rm(join(home, "signing-key.pem"));
  });

  it("rejects every call after close", async () => {
    const authority = createLocalAuthority({ home: await tempDir() });
    await authority.publicKeys();
    await authority.close();
    await authority.close();
    expect(authority.closed).toBe(true);
    for (const call of [() => authority.now(), () => authority.publicKeys(), () => authority.issueReceipt(request(1))]) {
      await expect(call()).rejects.toMatchObject({ code: "AUTHORITY_CLOSED" });
    }
  });

  it("finishes pending anchors before closing", async () => {
    const home = await tempDir();
    const authority = createLocalAuthority({ home });
    const receipts = await Promise.all([1, 2, 3].map((n) => authority.issueReceipt(request(n))));
    const anchoring = Promise.all(receipts.map((receipt) => authority.anchor(receipt)));
    await authority.close();
    expect(await anchoring).toHaveLength(3);
    await withAuthority(home, T0, async (reopened) => expect((await reopened.status()).anchors).toBe(3));
  });
});
