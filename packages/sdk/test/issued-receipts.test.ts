import { afterEach, describe, expect, it, vi } from "vitest";
import { createMemoryAuthority } from "../src/authority/memory-authority.js";
import { IssuedReceipts } from "../src/authority/issued-receipts.js";
import { contextAt } from "../src/core/phase.js";
import { sha256Hex } from "../src/core/sha256.js";
import { createTsaeRequest } from "../src/core/tsae.js";
import type { Receipt } from "../src/core/types.js";
import { VerifyingKey } from "../src/core/verifying-key.js";

const T0 = Date.UTC(2026, 0, 5, 9);
const request = (n: number) => createTsaeRequest(contextAt(T0 + n * 1000, { zone: 1 }), { scope: "test.issued.v1", action_hash_hex: sha256Hex(`issued ${n}`) });
/** The receipt as it comes back over HTTP: a new object, parsed from its JSON. */
const overTheWire = (receipt: Receipt): Receipt => JSON.parse(JSON.stringify(receipt)) as Receipt;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("IssuedReceipts", () => {
  it("remembers the latest hashes up to its capacity, forgetting the oldest first", () => {
    const issued = new IssuedReceipts(3);
    for (const hash of ["a", "b", "c", "b", "d"]) issued.remember(hash);
    expect(["a", "b", "c", "d"].map((hash) => issued.has(hash))).toEqual([false, true, true, true]);
    issued.remember("e");
    expect(["b", "c", "d", "e"].map((hash) => issued.has(hash))).toEqual([false, true, true, true]);
  });
});

describe("anchor: a receipt this authority issued is not verified again", () => {
  it("anchors a copy of its own receipt without a signature verification, and still verifies (and refuses) any other", async () => {
    const authority = createMemoryAuthority({ clock: () => T0 });
    const verify = vi.spyOn(VerifyingKey.prototype, "verify");
    const receipt = await authority.issueReceipt(request(1));
    const proof = await authority.anchor(overTheWire(receipt));
    expect(proof.leaf_index).toBe(0);
    expect(verify).not.toHaveBeenCalled();

    // Changed after signing: the hash is not one it issued, so the signature is checked, and fails.
    const altered = { ...overTheWire(await authority.issueReceipt(request(2))), scope: "test.other.v1" };
    await expect(authority.anchor(altered)).rejects.toMatchObject({ code: "RECEIPT_REJECTED" });
    expect(verify).toHaveBeenCalledTimes(1);

    // Issued by another authority (another key id): refused.
    const foreign = await createMemoryAuthority({ clock: () => T0 }).issueReceipt(request(3));
    await expect(authority.anchor(overTheWire(foreign))).rejects.toMatchObject({ code: "RECEIPT_REJECTED" });
    await authority.close();
  });
});
