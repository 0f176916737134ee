import { MemorySigner, receiptHash, type PrivateKeyJwk, type VerifyingKey } from "@temporal/agent-sdk";
import { describe, expect, it } from "vitest";
import { request, forgeHeadSignature, sharedKey, startNode, useTestPostgres } from "./nodes.js";

const { emptyDatabase } = useTestPostgres(2);

async function verifyingKeyOf(privateKey: PrivateKeyJwk): Promise<VerifyingKey> {
  return (await new MemorySigner({ privateKey }).load()).verifying;
}

describe("PostgresStore: catching up after another node rotated the key", () => {
  it("refuses the new key's records with LOG_KEY_UNKNOWN until restarted with it, then verifies the whole log", { timeout: 30_000 }, async () => {
    const url = emptyDatabase();
    const [oldKey, newKey] = [await sharedKey(), await sharedKey()];
    let stale = startNode(url, oldKey, "stale");
    const rotated = startNode(url, newKey, "rotated", Date.now, { previousKeys: [await verifyingKeyOf(oldKey)] });
    try {
      const oldReceipt = await stale.authority.issueReceipt(request(1));
      await stale.authority.anchor(oldReceipt);
      const newReceipt = await rotated.authority.issueReceipt(request(2));
      await rotated.authority.anchor(newReceipt);
      // Every read catches up first: the stale node serves nothing built on a head it cannot check.
      await expect(stale.authority.getAnchorProof(receiptHash(oldReceipt))).rejects.toMatchObject({ code: "LOG_KEY_UNKNOWN" });
      await stale.close();
      stale = startNode(url, newKey, "stale", Date.now, { previousKeys: [await verifyingKeyOf(oldKey)] });
      for (const receipt of [oldReceipt, newReceipt]) {
        const proof = await stale.authority.getAnchorProof(receiptHash(receipt));
        expect(await stale.authority.verifyAnchored(receipt, proof)).toMatchObject({ valid: true });
      }
      expect((await stale.authority.status()).records).toBe(2);
    } finally {
      await Promise.all([stale.close(), rotated.close()]);
    }
  });

  it("reports a forged head before a later head signed by a key it lacks: the earlier records are judged first, in order", { timeout: 30_000 }, async () => {
    const url = emptyDatabase();
    const [oldKey, newKey] = [await sharedKey(), await sharedKey()];
    const reader = startNode(url, oldKey, "reader");
    const writer = startNode(url, oldKey, "writer");
    const rotated = startNode(url, newKey, "rotated", Date.now, { previousKeys: [await verifyingKeyOf(oldKey)] });
    try {
      await reader.authority.anchor(await reader.authority.issueReceipt(request(1)));
      await writer.authority.anchor(await writer.authority.issueReceipt(request(2)));
      await rotated.authority.anchor(await rotated.authority.issueReceipt(request(3)));
      // Record 1 (the old key's) gets one signature character changed; record 2 is the new key's.
      await forgeHeadSignature(url, 1);
      await expect(reader.store.log.status()).rejects.toMatchObject({ code: "LEDGER_CORRUPT", message: expect.stringContaining("does not verify") });
    } finally {
      await Promise.all([reader.close(), writer.close(), rotated.close()]);
    }
  });
});
