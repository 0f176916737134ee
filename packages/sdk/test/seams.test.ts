import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  GENESIS_CHECKPOINT_HASH,
  MemoryChallengeStore,
  MemoryLogStore,
  MemorySigner,
  contextAt,
  createTsaeRequest,
  signedCheckpointHash,
  receiptHash,
  sha256Hex,
  verifyAnchorProof,
  verifyConsistencyProof,
  type ChallengeStore,
  type HeadSigning,
  type LogEntry,
  type LogStore,
  type Receipt,
  type Signer,
  type SigningKey,
} from "../src/index.js";
import { FileChallengeStore, FileLogStore, FileSigner, homePaths } from "../src/node/index.js";
import { signingPayload } from "../src/core/signed-record.js";
import { ed25519KeyPair, tempDir } from "./helpers.js";

const T0 = Date.UTC(2025, 9, 2, 7);

/** Each seam's implementations, made fresh per test: the same contract runs against all of them. */
const signers: [string, () => Promise<Signer>][] = [
  ["memory", async () => new MemorySigner()],
  ["file", async () => new FileSigner(homePaths(await tempDir()))],
];
const logStores: [string, () => Promise<LogStore>][] = [
  ["memory", async () => new MemoryLogStore()],
  ["file", async () => new FileLogStore(homePaths(await tempDir()))],
];
const challengeStores: [string, () => Promise<ChallengeStore>][] = [
  ["memory", async () => new MemoryChallengeStore()],
  ["file", async () => new FileChallengeStore(join(await tempDir(), "challenges"))],
];

const signingKey = new MemorySigner().load();

/** Receipts signed by `key`, in `zone`, that a log store accepts as they are (stores do not check receipt signatures). */
async function entries(key: SigningKey, from: number, count: number, zone = 3): Promise<LogEntry[]> {
  const out: LogEntry[] = [];
  for (let n = from; n < from + count; n++) {
    const request = createTsaeRequest(contextAt(T0 + n, { zone }), { scope: "test.seams.v1", action_hash_hex: sha256Hex(`seam ${n}`) });
    const unsigned = { ...request, receipt_version: 1, issued_unix_ms: T0 + n, key_id: key.verifying.key_id } as const;
    const receipt: Receipt = { ...unsigned, signature: await key.sign(signingPayload(unsigned)) };
    out.push({ receipt, hash: receiptHash(receipt) });
  }
  return out;
}

function signing(key: SigningKey, clock: () => number = () => T0): HeadSigning {
  return { key: key.verifying, authority_name: "seams.test", issuedUnixMs: clock, sign: (message) => key.sign(message) };
}

describe.each(signers)("signer contract: %s", (_name, make) => {
  it("loads one key, whose signatures verify with its public half", async () => {
    const signer = await make();
    const key = await signer.load();
    expect(await signer.load()).toBe(key);
    expect(key.verifying.key_id).toMatch(/^[0-9a-f]{16}$/);
    const signature = await key.sign("a message");
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(await key.verifying.verify(signature, "a message")).toBe(true);
    expect(await key.verifying.verify(signature, "another message")).toBe(false);
    const other = await (await make()).load();
    expect(other.verifying.key_id).not.toBe(key.verifying.key_id);
    expect(await other.verifying.verify(signature, "a message")).toBe(false);
  });
});

describe.each(logStores)("log store contract: %s", (_name, make) => {
  /** A fresh store of this kind, opened for the shared signing key. */
  async function opened(): Promise<{ key: SigningKey; log: LogStore }> {
    const key = await signingKey;
    const log = await make();
    await log.open(key.verifying);
    return { key, log };
  }

  it("anchors a batch as one commit with proofs that verify, chaining heads across tiles", async () => {
    const { key, log } = await opened();
    const batch = [...(await entries(key, 0, 3, 3)), ...(await entries(key, 10, 2, 4))];
    const proofs = await log.append(batch, signing(key));
    expect(proofs.map((p) => [p.tile_id, p.leaf_index])).toEqual([
      [batch[0]?.receipt.tile_id, 0],
      [batch[0]?.receipt.tile_id, 1],
      [batch[0]?.receipt.tile_id, 2],
      [batch[3]?.receipt.tile_id, 0],
      [batch[3]?.receipt.tile_id, 1],
    ]);
    for (const proof of proofs) expect(await verifyAnchorProof(proof, key.verifying)).toBe(true);
    const [first, second] = [proofs[0]?.checkpoint, proofs[3]?.checkpoint];
    expect(first).toMatchObject({ sequence: 0, prev_checkpoint_hash: GENESIS_CHECKPOINT_HASH, tree_size: 3, issued_unix_ms: T0 });
    expect(second).toMatchObject({ sequence: 1, prev_checkpoint_hash: signedCheckpointHash(first as never), tree_size: 2 });
    expect(await log.headHashAt(1)).toBe(signedCheckpointHash(second as never));
    expect(await log.headHashAt(2)).toBeUndefined();
    expect(await log.status()).toMatchObject({ records: 1, anchors: 5, chain_valid: true, last_checkpoint: second, recovered: undefined });
    expect((await log.status()).tiles.map((t) => t.tree_size)).toEqual([3, 2]);
    await log.close();
  });

  it("adds nothing for receipts already anchored or repeated in a batch, and answers queries", async () => {
    const { key, log } = await opened();
    const batch = await entries(key, 0, 4);
    const tile = batch[0]?.receipt.tile_id as number;
    const proofs = await log.append([batch[0], batch[0], batch[1]] as LogEntry[], signing(key));
    expect(proofs[0]).toEqual(proofs[1]);
    const again = await log.append([batch[1], batch[2], batch[3]] as LogEntry[], signing(key));
    expect(again.map((p) => p.leaf_index)).toEqual([1, 2, 3]);
    const reread = await log.proof(batch[0]?.hash as string);
    expect(reread).toMatchObject({ receipt_hash: batch[0]?.hash, leaf_index: 0 });
    expect(await verifyAnchorProof(reread as never, key.verifying)).toBe(true);
    expect(await log.proof(sha256Hex("never"))).toBeUndefined();
    expect((await log.list(tile)).map((s) => s.receipt_hash)).toEqual(batch.map((e) => e.hash));
    expect(await log.page(tile, 1, 2)).toMatchObject({ total: 4, offset: 1, next_offset: 3, anchors: [{ leaf_index: 1 }, { leaf_index: 2 }] });
    expect(await log.page(tile + 1, 0, 10)).toEqual({ tile_id: tile + 1, total: 0, offset: 0, anchors: [], next_offset: null });
    expect(verifyConsistencyProof(await log.consistencyProof(tile, 2, 4))).toBe(true);
    await expect(log.consistencyProof(tile, 1, 5)).rejects.toMatchObject({ code: "INVALID_TREE_SIZE" });
    expect((await log.status()).records).toBe(2);
    await log.close();
  });

  it("writes nothing when the heads cannot be signed, and carries on after", async () => {
    const { key, log } = await opened();
    const batch = await entries(key, 0, 2);
    const badClock = () => {
      throw Object.assign(new RangeError("bad clock"), { code: "INVALID_TIME" });
    };
    await expect(log.append(batch.slice(0, 1), signing(key, badClock))).rejects.toMatchObject({ code: "INVALID_TIME" });
    expect(await log.proof(batch[0]?.hash as string)).toBeUndefined();
    expect(await log.append(batch, signing(key))).toMatchObject([{ leaf_index: 0, checkpoint: { sequence: 0 } }, { leaf_index: 1 }]);
    await log.close();
  });

  it("keeps concurrent appends in one chain", async () => {
    const { key, log } = await opened();
    const batches = await Promise.all([0, 1, 2, 3].map((i) => entries(key, i * 10, 3, i % 2 === 0 ? 3 : 5)));
    const results = await Promise.all(batches.map((batch) => log.append(batch, signing(key))));
    const sequences = results.map((proofs) => (proofs[0] as { checkpoint: { sequence: number } }).checkpoint.sequence).sort();
    expect(sequences).toEqual([0, 1, 2, 3]);
    for (const proofs of results) for (const proof of proofs) expect(await verifyAnchorProof((await log.proof(proof.receipt_hash)) as never, key.verifying)).toBe(true);
    expect(await log.status()).toMatchObject({ records: 4, anchors: 12, chain_valid: true });
    await log.close();
    await expect(log.append(await entries(key, 99, 1), signing(key))).rejects.toMatchObject({ code: "AUTHORITY_CLOSED" });
  });
});

describe.each(challengeStores)("challenge store contract: %s", (_name, make) => {
  const nonce = (n: number) => sha256Hex(`nonce ${n}`);

  it("gives each outstanding nonce to exactly one taker before it expires", async () => {
    const store = await make();
    await store.add(nonce(1), T0 + 1_000, T0);
    await store.add(nonce(2), T0 + 1_000, T0);
    expect(await store.take(nonce(3), T0)).toBe(false);
    const takes = await Promise.all(Array.from({ length: 6 }, () => store.take(nonce(1), T0 + 10)));
    expect(takes.filter(Boolean)).toHaveLength(1);
    expect(await store.take(nonce(1), T0 + 20)).toBe(false);
    expect(await store.take(nonce(2), T0 + 1_000)).toBe(false);
    expect(await store.take(nonce(2), T0 + 10)).toBe(false);
    await store.close();
  });

  it("forgets expired nonces as new ones are added", async () => {
    const store = await make();
    for (let n = 0; n < 300; n++) await store.add(nonce(n), T0 + 100, T0);
    for (let n = 300; n < 600; n++) await store.add(nonce(n), T0 + 10_000, T0 + 200);
    expect(await store.take(nonce(5), T0 + 50)).toBe(false);
    expect(await store.take(nonce(599), T0 + 300)).toBe(true);
    await store.close();
  });
});

describe("file seams", () => {
  it("keep a challenge file per outstanding nonce and remove it when used or expired", async () => {
    const directory = join(await tempDir(), "challenges");
    const store = new FileChallengeStore(directory);
    await store.add(sha256Hex("a"), T0 + 100, T0);
    await store.add(sha256Hex("b"), T0 + 10_000, T0);
    expect((await readdir(directory)).sort()).toEqual([sha256Hex("a"), sha256Hex("b")].sort());
    expect(await store.take(sha256Hex("b"), T0)).toBe(true);
    await store.purge(T0 + 100);
    expect(await readdir(directory)).toEqual([]);
    await expect(store.add("not a nonce", T0 + 1, T0)).rejects.toMatchObject({ code: "CHALLENGE_INVALID" });
  });

  it("signers: a memory signer imports a PKCS#8 or JWK key, keeping its key id", async () => {
    const pair = await ed25519KeyPair(true);
    const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
    const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as { kty: "OKP"; crv: "Ed25519"; d: string; x: string };
    const [a, b] = await Promise.all([new MemorySigner({ privateKey: pkcs8 }).load(), new MemorySigner({ privateKey: jwk }).load()]);
    expect(a.verifying.key_id).toBe(b.verifying.key_id);
    expect(await b.verifying.verify(await a.sign("m"), "m")).toBe(true);
    await expect(new MemorySigner({ privateKey: new Uint8Array(8) }).load()).rejects.toMatchObject({ code: "KEY_INVALID" });
    await expect(new MemorySigner({ privateKey: { kty: "RSA" } as never }).load()).rejects.toMatchObject({ code: "KEY_INVALID" });
  });
});
