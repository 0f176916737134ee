/**
 * Where witnessing keeps what must survive a restart: each tile's latest
 * checkpoint with a quorum of cosignatures (what makes proofs `FINAL`), the
 * size each witness last cosigned (the `old` of the next submission), and
 * fork evidence. One small document, replaced whole: the memory store here,
 * the home's file in `src/node` (`FileWitnessingStore`). A store several
 * service nodes share (PostgreSQL) merges what it is given into what it holds
 * (`mergeWitnessingRecords`) and says so with `shared`.
 */

import type { CosignedCheckpoint, ForkEvidence, WitnessTileState } from "../core/witnessing-types.js";

export interface WitnessingRecord {
  readonly cosigned: readonly CosignedCheckpoint[];
  /** Per witness name, the tiles it cosigned. */
  readonly witnesses: Readonly<Record<string, readonly WitnessTileState[]>>;
  readonly forks: readonly ForkEvidence[];
  /** Per witness name, the fork evidence beyond the kept limit: counted, not kept (absent in files written before). */
  readonly forks_not_kept?: Readonly<Record<string, number>>;
}

export interface WitnessingStore {
  /** The record saved last, or undefined when there is none. */
  load(): Promise<WitnessingRecord | undefined>;
  /** Replaces the record durably (all or nothing); a shared store merges it into what it holds instead. Calls from one node never overlap. */
  save(record: WitnessingRecord): Promise<void>;
  /** Present when several nodes use the store at once: witnessing then reads it again every interval and submits in turns. */
  readonly shared?: SharedWitnessingStore;
}

/**
 * What nodes sharing one witnessing state need beyond load and save. Their rounds take turns, so that a witness sees
 * each checkpoint once, with the `old` size of the last cosignature any node got (an `old` another node already moved
 * past is a 409 and a second request); and `save` merges, so that a node that saw less never rolls back another's.
 */
export interface SharedWitnessingStore {
  /**
   * Runs `round` while no other node runs one and resolves with its result; resolves undefined without running it
   * when another node holds the turn (the caller tries again at its next interval).
   */
  exclusively<T>(round: () => Promise<T>): Promise<T | undefined>;
}

/** Keeps the record in memory: for the memory authority, whose clockchain ends with the process too. */
export class MemoryWitnessingStore implements WitnessingStore {
  #record: WitnessingRecord | undefined;

  load(): Promise<WitnessingRecord | undefined> {
    return Promise.resolve(this.#record);
  }

  save(record: WitnessingRecord): Promise<void> {
    this.#record = structuredClone(record);
    return Promise.resolve();
  }
}

/** True when `value` has a record's three parts (what is in them is checked again when witnessing takes it back). */
export function isWitnessingRecord(value: unknown): value is WitnessingRecord {
  if (typeof value !== "object" || value === null) return false;
  const { cosigned, witnesses, forks } = value as Record<string, unknown>;
  return Array.isArray(cosigned) && Array.isArray(forks) && typeof witnesses === "object" && witnesses !== null && !Array.isArray(witnesses);
}

/**
 * What a shared store keeps when a node saves `incoming` over `stored`: per tile the cosigned checkpoint of the larger
 * size (at one size, the one with more cosignatures), so the stored one only moves forward; per witness and tile the
 * larger cosigned size (a witness never goes back); every fork evidence once (per witness, tile and size), and per
 * witness the larger count of evidence not kept.
 */
export function mergeWitnessingRecords(stored: WitnessingRecord | undefined, incoming: WitnessingRecord): WitnessingRecord {
  stored ??= { cosigned: [], witnesses: {}, forks: [] };
  const cosigned = new Map<number, CosignedCheckpoint>();
  for (const checkpoint of [...stored.cosigned, ...incoming.cosigned]) {
    const held = cosigned.get(checkpoint.tile_id);
    const ahead = held === undefined || checkpoint.tree_size > held.tree_size || (checkpoint.tree_size === held.tree_size && checkpoint.cosignatures.length > held.cosignatures.length);
    if (ahead) cosigned.set(checkpoint.tile_id, checkpoint);
  }
  const witnesses: Record<string, WitnessTileState[]> = {};
  for (const [name, tiles] of [...Object.entries(stored.witnesses), ...Object.entries(incoming.witnesses)]) {
    const byTile = new Map((witnesses[name] ?? []).map((state) => [state.tile_id, state]));
    for (const state of tiles) if ((byTile.get(state.tile_id)?.cosigned_size ?? -1) < state.cosigned_size) byTile.set(state.tile_id, state);
    witnesses[name] = [...byTile.values()].sort((a, b) => a.tile_id - b.tile_id);
  }
  const forks = new Map<string, ForkEvidence>();
  for (const fork of [...stored.forks, ...incoming.forks]) {
    const key = JSON.stringify([fork.witness, fork.tile_id, fork.witness_size]);
    if (!forks.has(key)) forks.set(key, fork);
  }
  // Fork evidence counted but not kept: per witness the larger count (each node counts what it saw).
  const notKept: Record<string, number> = { ...stored.forks_not_kept };
  for (const [name, count] of Object.entries(incoming.forks_not_kept ?? {})) notKept[name] = Math.max(count, notKept[name] ?? 0);
  return { cosigned: [...cosigned.values()].sort((a, b) => a.tile_id - b.tile_id), witnesses, forks: [...forks.values()], forks_not_kept: notKept };
}
