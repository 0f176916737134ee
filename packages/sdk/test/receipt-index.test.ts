import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ReceiptIndex } from "../src/authority/receipt-index.js";
import { sha256Hex } from "../src/index.js";

const hashes = fc.uniqueArray(fc.integer({ min: 0, max: 1e6 }), { maxLength: 60 }).map((ns) => ns.map((n) => sha256Hex(`receipt ${n}`)));

describe("ReceiptIndex", () => {
  it("finds every receipt, saved in a table or added since, and saves them all sorted", () => {
    fc.assert(
      fc.property(hashes, fc.nat(), (all, split) => {
        const cut = all.length === 0 ? 0 : split % (all.length + 1);
        const location = (i: number) => ({ tileId: 240_000 + (i % 7), leafIndex: i * 3 });
        const first = new ReceiptIndex();
        all.slice(0, cut).forEach((hash, i) => first.set(hash, location(i)));
        const index = new ReceiptIndex(first.table());
        all.slice(cut).forEach((hash, i) => index.set(hash, location(cut + i)));
        expect(index.size).toBe(all.length);
        all.forEach((hash, i) => expect(index.get(hash)).toEqual(location(i)));
        expect(index.has(sha256Hex("never anchored"))).toBe(false);
        const table = index.table();
        const saved = Array.from({ length: all.length }, (_, i) => Buffer.from(table.subarray(i * 40, i * 40 + 32)).toString("hex"));
        expect(saved).toEqual([...all].sort());
        const reopened = new ReceiptIndex(table);
        all.forEach((hash, i) => expect(reopened.get(hash)).toEqual(location(i)));
      }),
      { numRuns: 100 },
    );
  });

  it("refuses a table that is not whole entries", () => {
    expect(() => new ReceiptIndex(new Uint8Array(41))).toThrow(/not a whole number of 40-byte entries/);
  });
});
