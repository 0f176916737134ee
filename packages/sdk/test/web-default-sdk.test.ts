import { describe, expect, it } from "vitest";
import { contextAt, createTsaeRequest, sha256Hex, verifyAnchorProof, verifyReceipt } from "../src/core/index.js";
import { defaultSdk } from "../src/web/default-sdk.js";

// What `#default-sdk` resolves to where the `node` condition does not apply (browsers, workers, edge runtimes).
describe("the default authority outside Node", () => {
  it("is one in-memory authority whose receipts and anchor proofs verify against its keys", async () => {
    const authority = defaultSdk();
    expect(defaultSdk()).toBe(authority);
    expect(authority.kind).toBe("local");
    await authority.ready();
    const request = createTsaeRequest(contextAt(Date.UTC(2026, 10, 22, 22, 30)), { scope: "test.web-default.v1", action_hash_hex: sha256Hex("a") });
    const receipt = await authority.issueReceipt(request);
    const proof = await authority.anchor(receipt);
    const key = (await authority.publicKeys())[receipt.key_id];
    expect(key).toBeDefined();
    expect(await verifyReceipt(receipt, key!)).toBe(true);
    expect(await verifyAnchorProof(proof, key!)).toBe(true);
    expect(await authority.getAnchorProof(proof.receipt_hash)).toEqual(proof);
  });

  it("is replaced by a fresh one, with a key of its own, once closed", async () => {
    const first = defaultSdk();
    const firstKeys = await first.publicKeys();
    await first.close();
    const fresh = defaultSdk();
    expect(fresh).not.toBe(first);
    expect(Object.keys(await fresh.publicKeys())).not.toEqual(Object.keys(firstKeys));
  });
});
