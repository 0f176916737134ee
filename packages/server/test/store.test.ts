/**
 * The service over a store that is not the home's files: what a database
 * store (a log store and a challenge store) plugs into.
 */
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MemoryChallengeStore, MemoryLogStore, MemorySigner, contextAt, createClient, createTsaeRequest, formatVerifierKey, sha256Hex, verifyAnchorProof } from "@temporal/agent-sdk";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, createApiKey, createService } from "../src/index.js";
import { readConfigObject } from "../src/config.js";
import { tempDir } from "./helpers.js";

describe("the service's store", () => {
  it("can be any log store and challenge store, with any signer: the service composes the same authority over them", async () => {
    const home = await tempDir();
    const { key, record } = createApiKey("enterprise", "store test", new Date(0));
    const store = { log: new MemoryLogStore(), challenges: new MemoryChallengeStore() };
    const service = createService({ home, store, signer: new MemorySigner(), config: { ...DEFAULT_CONFIG, keys: [record] } });
    const client = createClient({ baseUrl: await service.listen({ host: "127.0.0.1", port: 0 }), apiKey: key });
    try {
      const challenge = await client.getChallenge();
      const receipt = await client.issueTsae({ ...createTsaeRequest(contextAt(Date.now()), { scope: "test.store.v1", action_hash_hex: sha256Hex("store") }), challenge });
      const proof = await client.anchorTsaeHash(receipt);
      const [jwk] = Object.values(await client.publicKeys());
      expect(await verifyAnchorProof(proof, jwk as never)).toBe(true);
      expect(await store.log.proof(proof.receipt_hash)).toEqual(proof);
      expect(await store.challenges.take(challenge.nonce, Date.now())).toBe(false);
      expect(await client.getClockchainStatus()).toMatchObject({ store: { kind: "memory", records: 1 }, anchors: 1, chain_valid: true });
      // Nothing of the store or the key went to the home.
      expect(await readdir(home)).toEqual([]);
    } finally {
      await client.close();
      await service.close();
    }
  });

  it("signs checkpoints under the configured authority_name, and publishes the vkeys under it", async () => {
    const { key, record } = createApiKey("enterprise", "name test", new Date(0));
    const config = { ...DEFAULT_CONFIG, keys: [record], authority_name: "clock.example.com" };
    const service = createService({ home: await tempDir(), store: { log: new MemoryLogStore(), challenges: new MemoryChallengeStore() }, signer: new MemorySigner(), config });
    const client = createClient({ baseUrl: await service.listen({ host: "127.0.0.1", port: 0 }), apiKey: key });
    try {
      const receipt = await client.issueTsae({ ...createTsaeRequest(contextAt(Date.now()), { scope: "test.store.v1", action_hash_hex: sha256Hex("named") }) });
      const proof = await client.anchorTsaeHash(receipt);
      expect(proof.checkpoint.origin).toBe(`clock.example.com/tile/${receipt.tile_id}`);
      const { keys, note_verifier_keys } = await client.getKeys();
      expect(Object.values(note_verifier_keys)).toEqual([formatVerifierKey("clock.example.com", keys[receipt.key_id]!)]);
      expect(await verifyAnchorProof(proof, note_verifier_keys[receipt.key_id]!)).toBe(true);
    } finally {
      await client.close();
      await service.close();
    }
    await expect(readConfigObject(await configFile({ authority_name: "has space" }), false)).rejects.toThrow(/authority_name/);
  });
});

async function configFile(value: object): Promise<string> {
  const path = join(await tempDir(), "config.json");
  await writeFile(path, JSON.stringify(value));
  return path;
}
