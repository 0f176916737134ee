/**
 * The service over a store that is not the home's files: what a database
 * store (a log store and a challenge store) plugs into.
 */
import { readdir } from "node:fs/promises";
import { MemoryChallengeStore, MemoryLogStore, MemorySigner, contextAt, createClient, createTsaeRequest, sha256Hex, verifyAnchorProof } from "@temporal/agent-sdk";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, createApiKey, createService } from "../src/index.js";
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
});
