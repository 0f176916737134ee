import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ReceiptIndex, mergeRuns, type ReceiptLocation } from "../src/authority/receipt-index.js";
import { HashList } from "../src/core/hash-list.js";
import { sha256Hex } from "../src/index.js";

const hashes = fc.uniqueArray(fc.integer({ min: 0, max: 1e6 }), { maxLength: 80 }).map((ns) => ns.map((n) => sha256Hex(`receipt ${n}`)));
const location = (i: number): ReceiptLocation => ({ tileId: 240_000 + (i % 7), leafIndex: i * 3 });

/** A sorted run of the given receipts, as a store saves it. */
function runOf(all: readonly string[], from: number, to: number): HashList {
  const index = new ReceiptIndex();
  for (let i = from; i < to; i++) index.set(all[i] as string, location(i));
  return HashList.adopt(index.addedTable(), 40);
}

const hashesOf = (run: HashList): string[] => Array.from({ length: run.length }, (_, i) => Buffer.from(run.get(i).subarray(0, 32)).toString("hex"));

describe("ReceiptIndex", () => {
  it("finds every receipt, in any of its sorted runs or added since, and gives those added as a sorted run", () => {
    fc.assert(
      fc.property(hashes, fc.array(fc.nat(), { maxLength: 4 }), (all, splits) => {
        const cuts = [0, ...splits.map((n) => n % (all.length + 1)).sort((a, b) => a - b), all.length];
        const runs = cuts.slice(1, -1).map((cut, i) => runOf(all, cuts[i] as number, cut));
        const index = new ReceiptIndex(runs);
        const addedFrom = cuts.at(-2) as number;
        for (let i = addedFrom; i < all.length; i++) index.set(all[i] as string, location(i));
        expect(index.size).toBe(all.length);
        all.forEach((hash, i) => expect(index.get(hash)).toEqual(location(i)));
        expect(index.has(sha256Hex("never anchored"))).toBe(false);
        expect(hashesOf(HashList.adopt(index.addedTable(), 40))).toEqual(all.slice(addedFrom).sort());
        // Only the entries a saver lacks: here those of even tiles.
        const even = HashList.adopt(
          index.addedTable(({ tileId }) => tileId % 2 === 0),
          40,
        );
        expect(hashesOf(even)).toEqual(
          all
            .slice(addedFrom)
            .filter((_, i) => location(addedFrom + i).tileId % 2 === 0)
            .sort(),
        );
      }),
      { numRuns: 100 },
    );
  });

  it("merges two sorted runs into one sorted run holding both", () => {
    fc.assert(
      fc.property(hashes, fc.nat(), (all, split) => {
        const cut = split % (all.length + 1);
        const merged = HashList.adopt(Buffer.concat([...mergeRuns(runOf(all, 0, cut), runOf(all, cut, all.length))]), 40);
        expect(hashesOf(merged)).toEqual([...all].sort());
        const index = new ReceiptIndex([merged]);
        all.forEach((hash, i) => expect(index.get(hash)).toEqual(location(i)));
      }),
      { numRuns: 100 },
    );
    // Runs larger than a merge's chunk, searched by interpolation over thousands of entries.
    const many = Array.from({ length: 5000 }, (_, n) => sha256Hex(`many ${n}`));
    const merged = HashList.adopt(Buffer.concat([...mergeRuns(runOf(many, 0, 3000), runOf(many, 3000, 5000))]), 40);
    expect(hashesOf(merged)).toEqual([...many].sort());
    const index = new ReceiptIndex([merged]);
    many.forEach((hash, i) => expect(index.get(hash)).toEqual(location(i)));
    expect(index.get(sha256Hex("absent"))).toBeUndefined();
  });
});
