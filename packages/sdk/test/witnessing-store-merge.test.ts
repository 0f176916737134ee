/**
 * `mergeWitnessingRecords`, what a store shared by several nodes keeps when one saves: whatever the order of the
 * saves, a tile's cosigned checkpoint is the largest any node saved and a witness's size the largest any node saw.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeWitnessingRecords, type CosignedCheckpoint, type ForkEvidence, type WitnessingRecord } from "../src/index.js";

const WITNESSES = ["w.test/1", "w.test/2"];

/** A record with, per tile, a cosigned checkpoint of the given size (with as many cosignatures) and each witness's size. */
function record(tiles: readonly { tile: number; size: number; cosigned: number; witness: number }[]): WitnessingRecord {
  const cosigned = tiles.map(({ tile, size, cosigned }): CosignedCheckpoint => ({
    tile_id: tile,
    origin: `log.test/tile/${tile}`,
    tree_size: size,
    root_hash: "00".repeat(32),
    sequence: size,
    prev_checkpoint_hash: "00".repeat(32),
    issued_unix_ms: 0,
    note: `size ${size}`,
    cosignatures: WITNESSES.slice(0, cosigned).map((witness) => ({ witness, timestamp: size })),
  }));
  const witnesses = Object.fromEntries(WITNESSES.map((name) => [name, tiles.map(({ tile, witness }) => ({ tile_id: tile, cosigned_size: witness, cosigned_unix_s: witness }))]));
  return { cosigned, witnesses, forks: [] };
}

const tileState = fc.record({
  tile: fc.integer({ min: 0, max: 3 }),
  size: fc.integer({ min: 1, max: 50 }),
  cosigned: fc.integer({ min: 0, max: 2 }),
  witness: fc.integer({ min: 0, max: 50 }),
});
/** One node's save: at most one entry per tile. */
const save = fc.uniqueArray(tileState, { selector: (state) => state.tile, maxLength: 4 }).map(record);

describe("mergeWitnessingRecords", () => {
  it("keeps per tile the largest cosigned checkpoint and per witness the largest size, in any order of saves", () => {
    fc.assert(
      fc.property(fc.array(save, { minLength: 1, maxLength: 6 }), (saves) => {
        const stored = saves.reduce<WitnessingRecord | undefined>((held, incoming) => mergeWitnessingRecords(held, incoming), undefined) as WitnessingRecord;
        const reversed = [...saves].reverse().reduce<WitnessingRecord | undefined>((held, incoming) => mergeWitnessingRecords(held, incoming), undefined) as WitnessingRecord;
        const all = saves.flatMap((saved) => saved.cosigned);
        for (const tile of new Set(all.map((checkpoint) => checkpoint.tile_id))) {
          const largest = Math.max(...all.filter((checkpoint) => checkpoint.tile_id === tile).map((checkpoint) => checkpoint.tree_size));
          expect(stored.cosigned.find((checkpoint) => checkpoint.tile_id === tile)?.tree_size).toBe(largest);
          expect(reversed.cosigned.find((checkpoint) => checkpoint.tile_id === tile)?.tree_size).toBe(largest);
          for (const name of WITNESSES) {
            const seen = saves.flatMap((saved) => saved.witnesses[name] ?? []).filter((state) => state.tile_id === tile);
            expect(stored.witnesses[name]?.find((state) => state.tile_id === tile)?.cosigned_size).toBe(Math.max(...seen.map((state) => state.cosigned_size)));
          }
        }
        // Saving what is held again changes nothing.
        expect(mergeWitnessingRecords(stored, stored)).toEqual(stored);
      }),
    );
  });

  it("at one size keeps the checkpoint with more cosignatures, and each fork evidence once", () => {
    const fewer = record([{ tile: 1, size: 5, cosigned: 1, witness: 5 }]);
    const more = record([{ tile: 1, size: 5, cosigned: 2, witness: 5 }]);
    expect(mergeWitnessingRecords(more, fewer).cosigned[0]?.cosignatures).toHaveLength(2);
    expect(mergeWitnessingRecords(fewer, more).cosigned[0]?.cosignatures).toHaveLength(2);
    const fork: ForkEvidence = { tile_id: 1, witness: "w.test/1", note: "n", witness_note: null, consistency_proof: null, witness_size: 5, message: "m", detected_unix_ms: 1 };
    const forked = { ...fewer, forks: [fork] };
    expect(mergeWitnessingRecords(forked, { ...more, forks: [{ ...fork, detected_unix_ms: 2 }] }).forks).toEqual([fork]);
  });
});
