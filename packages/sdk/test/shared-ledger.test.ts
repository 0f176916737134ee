import { appendFile, readFile, readdir, truncate } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contextAt, createTsaeRequest, sha256Hex, type AnchorProof } from "../src/index.js";
import { createLocalAuthority, type LocalAuthority } from "../src/node/index.js";
import { tempDir, withAuthority } from "./helpers.js";

const T0 = Date.UTC(2025, 11, 4, 16);
const request = (n: number) => createTsaeRequest(contextAt(T0 + n, { zone: 8 }), { scope: "test.shared_ledger.v1", action_hash_hex: sha256Hex(`shared ${n}`) });

async function anchorOne(authority: LocalAuthority, n: number): Promise<AnchorProof> {
  return authority.anchor(await authority.issueReceipt(request(n)));
}

/** A home with `count` anchors, one record each, and the ledger's length after each record. */
async function homeWithRecords(count: number): Promise<{ home: string; ledger: string; ends: number[] }> {
  const home = await tempDir();
  const ledger = join(home, "clockchain.log");
  const ends: number[] = [];
  await withAuthority(home, T0, async (authority) => {
    for (let n = 0; n < count; n++) {
      await anchorOne(authority, n);
      ends.push((await readFile(ledger)).length);
    }
  });
  return { home, ledger, ends };
}

describe("a ledger shared by several writers", () => {
  it("leaves a partial record at the end alone while reading (someone's append in progress); the next append, under the lock, removes it as torn", async () => {
    const { home, ledger, ends } = await homeWithRecords(2);
    const whole = await readFile(ledger);
    await truncate(ledger, ends[0]);
    await withAuthority(home, T0 + 100, async (authority) => {
      expect((await authority.status()).anchors).toBe(1);
      // Half of the second record appears, as another writer's write would.
      await appendFile(ledger, whole.subarray(ends[0], (ends[0] as number) + 40));
      expect((await authority.status()).anchors).toBe(1);
      expect((await readFile(ledger)).length).toBe((ends[0] as number) + 40);
      // ... and the rest: a reader picks the record up once it is whole.
      await appendFile(ledger, whole.subarray((ends[0] as number) + 40));
      expect((await authority.status()).anchors).toBe(2);
      // A torn write left by a writer that died: only an append (holding the lock) cuts it off, keeping its bytes.
      await appendFile(ledger, Buffer.from([0x89, 0x54, 0x4c]));
      expect((await authority.clockchainStatus()).recovered).toBeNull();
      expect(await anchorOne(authority, 9)).toMatchObject({ leaf_index: 2, checkpoint: { sequence: 2 } });
      expect((await authority.status()).recovered).toMatchObject({ offset: ends[1], bytes: 3 });
    });
    expect((await readdir(home)).filter((name) => name.includes(".torn-"))).toHaveLength(1);
  });

  it("forgets a record it read that its writer then cut off again, and follows the record written in its place", async () => {
    const { home, ledger, ends } = await homeWithRecords(3);
    const whole = await readFile(ledger);
    const third = whole.subarray(ends[1]);
    const tile = contextAt(T0, { zone: 8 }).tile_id;
    await truncate(ledger, ends[1]);
    const reader = createLocalAuthority({ home, clock: () => T0 + 200 });
    const writer = createLocalAuthority({ home, clock: () => T0 + 300 });
    try {
      expect((await reader.status()).anchors).toBe(2);
      // A writer's record reaches the file and is read before the writer's fsync fails ...
      await appendFile(ledger, third);
      const [, , read] = await reader.listAnchors(tile);
      expect(await reader.getAnchorProof(read?.receipt_hash as string)).toMatchObject({ leaf_index: 2 });
      // ... and the writer cuts it off again, as the store does before rejecting the batch.
      await truncate(ledger, ends[1]);
      expect(await reader.getAnchorProof(read?.receipt_hash as string)).toBeUndefined();
      expect((await reader.status()).anchors).toBe(2);
      // The same again, but another record is written in its place before the reader looks: it follows that one.
      await appendFile(ledger, third);
      expect((await reader.status()).anchors).toBe(3);
      await truncate(ledger, ends[1]);
      const replacement = await anchorOne(writer, 7);
      expect(replacement).toMatchObject({ leaf_index: 2, checkpoint: { sequence: 2 } });
      expect(await reader.getAnchorProof(read?.receipt_hash as string)).toBeUndefined();
      expect(await reader.getAnchorProof(replacement.receipt_hash)).toEqual(replacement);
      // And its own next append continues the chain from the replacement.
      expect(await anchorOne(reader, 8)).toMatchObject({ leaf_index: 3, checkpoint: { sequence: 3 } });
      expect(await reader.clockchainStatus()).toMatchObject({ chain_valid: true, anchors: 4 });
    } finally {
      await Promise.all([reader.close(), writer.close()]);
    }
    await withAuthority(home, T0, async (reopened) => expect((await reopened.clockchainStatus()).anchors).toBe(4));
  });
});
