import { describe, expect, it } from "vitest";
import { AnchorQueue } from "../src/authority/anchor-queue.js";
import type { LogEntry } from "../src/authority/seams.js";
import type { AnchorProof } from "../src/core/types.js";

const entry = (n: number): LogEntry => ({ hash: `hash-${n}` }) as LogEntry;
/** A stand-in proof that says which entry it answers. */
const proofOf = (e: LogEntry): AnchorProof => ({ receipt_hash: e.hash }) as AnchorProof;

describe("AnchorQueue: anchors joining a batch while the store waits", () => {
  it("hands the anchors that arrived meanwhile to the waiting commit, and answers each caller with its own proof", async () => {
    const commits: string[][] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const queue = new AnchorQueue(async (entries, joining) => {
      await gate; // the store waiting for a lock
      const batch = [...entries, ...joining()];
      commits.push(batch.map((e) => e.hash));
      return batch.map(proofOf);
    });
    const first = queue.push(entry(0));
    await new Promise((resolve) => setImmediate(resolve));
    const later = [1, 2, 3].map((n) => queue.push(entry(n)));
    open();
    expect((await Promise.all([first, ...later])).map((proof) => proof.receipt_hash)).toEqual(["hash-0", "hash-1", "hash-2", "hash-3"]);
    expect(commits).toEqual([["hash-0", "hash-1", "hash-2", "hash-3"]]);
  });

  it("rejects the joined anchors with the batch when its commit fails, and commits what arrives afterwards", async () => {
    let fail = true;
    const queue = new AnchorQueue(async (entries, joining) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const batch = [...entries, ...joining()];
      if (fail) throw new Error("database gone");
      return batch.map(proofOf);
    });
    const first = queue.push(entry(0));
    await new Promise((resolve) => setImmediate(resolve));
    const joined = queue.push(entry(1));
    await expect(first).rejects.toThrow("database gone");
    await expect(joined).rejects.toThrow("database gone");
    fail = false;
    expect(await queue.push(entry(2))).toEqual({ receipt_hash: "hash-2" });
  });

  it("never lets a batch grow past MAX_BATCH through joining", async () => {
    const sizes: number[] = [];
    const queue = new AnchorQueue(async (entries, joining) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const batch = [...entries, ...joining()];
      sizes.push(batch.length);
      return batch.map(proofOf);
    });
    const first = queue.push(entry(0));
    await new Promise((resolve) => setImmediate(resolve));
    const rest = Array.from({ length: 1100 }, (_, i) => queue.push(entry(i + 1)));
    await Promise.all([first, ...rest]);
    expect(sizes).toEqual([1024, 77]);
  });
});
