/**
 * The log's side of witnessing (C2SP tlog-witness): after appends, each
 * tile's latest signed checkpoint goes to every witness with a consistency
 * proof from the size that witness last cosigned, in rounds at most one per
 * interval (so many anchors share one submission), and the cosignatures
 * that verify are collected per checkpoint. A checkpoint with `quorum` of
 * them makes the anchors it covers `FINAL`. Platform-free: `fetch`,
 * WebCrypto, timers. docs/witness.md describes the protocol and the states.
 */

import { cosignatureVerifier, readCosignature } from "../core/cosignature.js";
import { hexToBytes } from "../core/encoding.js";
import { TemporalError } from "../core/errors.js";
import type { NoteVerifier } from "../core/note-key.js";
import type { ConsistencyProof } from "../core/service-types.js";
import { isSignedCheckpoint } from "../core/signed-checkpoint.js";
import { formatSignatureLine, parseNote, type NoteSignature } from "../core/signed-note.js";
import type { AnchorProof, SignedCheckpoint } from "../core/types.js";
import { submitCheckpoint } from "../core/witness-client.js";
import type { CosignedCheckpoint, ForkEvidence, WitnessError, WitnessTileState, WitnessingHealth, WitnessingStatus } from "../core/witnessing-types.js";
import { onceUnlessRejected } from "./once-unless-rejected.js";
import { FinalityTimeoutError } from "../core/finality.js";
import { checkWitnessingOptions, type CheckedWitnessingOptions, type ParsedEndpoint, type WitnessingOptions } from "./witnessing-options.js";
import { MemoryWitnessingStore, type WitnessingRecord, type WitnessingStore } from "./witnessing-store.js";

/** The start of the status's `store_error` when reading a shared store failed. */
const REFRESH_FAILED = "reading the shared witnessing state failed";

/** What witnessing needs of the log: consistency proofs between its tile trees. */
export interface WitnessedLog {
  consistencyProof(tileId: number, first: number, second: number): Promise<ConsistencyProof>;
}

interface Witness extends ParsedEndpoint {
  verifier: NoteVerifier | undefined;
  readonly tiles: Map<number, WitnessTileState>;
  lastError: WitnessError | null;
}

/** The cosignatures gathered for one checkpoint, by witness name. */
interface Collection {
  readonly checkpoint: SignedCheckpoint;
  readonly text: string;
  readonly lines: Map<string, { readonly line: NoteSignature; readonly timestamp: number }>;
}

interface TileWitnessing {
  latest: SignedCheckpoint;
  /** Ascending size; older ones are dropped once a newer one has every witness they have. */
  collections: Collection[];
  /** The latest checkpoint with a quorum of cosignatures. */
  final: CosignedCheckpoint | undefined;
}

interface Waiter {
  readonly tileId: number;
  readonly leafIndex: number;
  readonly quorum: number;
  readonly resolve: (cosigned: CosignedCheckpoint) => void;
  readonly reject: (error: unknown) => void;
}

export class Witnessing {
  readonly #options: CheckedWitnessingOptions;
  readonly #log: WitnessedLog;
  readonly #store: WitnessingStore;
  readonly #witnesses: Witness[];
  readonly #tiles = new Map<number, TileWitnessing>();
  readonly #forks: ForkEvidence[] = [];
  readonly #waiters = new Set<Waiter>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #round: Promise<void> | undefined;
  #lastRoundStart = Number.NEGATIVE_INFINITY;
  #closed = false;
  #saving: Promise<void> = Promise.resolve();
  #storeError: string | null = null;
  /** The record last handed to the store, as JSON: a round that changed nothing saves nothing. */
  #savedJson: string | undefined;
  /** Entries of the saved record that were not taken back, and why: reported in the status. */
  readonly #dropped: string[] = [];
  /** With a shared store: the record last read from it, as JSON (an unchanged one is not taken back again), and the timer that reads it. */
  #loadedJson: string | undefined;
  #refreshTimer: ReturnType<typeof setInterval> | undefined;

  /** Throws `INVALID_WITNESSING` / `QUORUM_UNREACHABLE` for bad options; does no I/O until `open`. */
  constructor(options: WitnessingOptions, log: WitnessedLog) {
    this.#options = checkWitnessingOptions(options);
    this.#log = log;
    this.#store = options.store ?? new MemoryWitnessingStore();
    this.#witnesses = this.#options.endpoints.map((endpoint) => ({ ...endpoint, verifier: undefined, tiles: new Map(), lastError: null }));
  }

  get quorum(): number {
    return this.#options.quorum;
  }

  get witnessCount(): number {
    return this.#witnesses.length;
  }

  /** Imports the witnesses' keys and loads what the store kept (once), then submits `latest`, the log's newest checkpoint, if it is not witnessed yet. */
  async open(latest: SignedCheckpoint | undefined): Promise<void> {
    await this.#load();
    if (latest !== undefined) this.observe([latest]);
  }

  readonly #load = onceUnlessRejected(async () => {
    for (const witness of this.#witnesses) witness.verifier = await cosignatureVerifier(witness.vkey);
    await this.#refresh();
    if (this.#store.shared !== undefined) this.#startRefreshing();
  });

  /** Takes back what the store holds, when it changed since last read: at open, and with a shared store every interval and before each round. */
  async #refresh(): Promise<void> {
    const record = await this.#store.load();
    if (record === undefined) return;
    const json = JSON.stringify(record);
    if (json === this.#loadedJson) return;
    await this.#restore(record);
    this.#loadedJson = json;
  }

  /** Another node's rounds change the shared state: read it every interval, so this node's proofs turn `FINAL` and its status follows. */
  #startRefreshing(): void {
    if (this.#closed) return;
    this.#refreshTimer = setInterval(() => {
      if (this.#round !== undefined) return;
      this.#refresh().then(
        // Only its own error is cleared: a failed save must stay reported, so that the next round saves again.
        () => {
          if (this.#storeError?.startsWith(REFRESH_FAILED) === true) this.#storeError = null;
        },
        (error: unknown) => void (this.#storeError = `${REFRESH_FAILED}: ${(error as Error).message}`),
      );
    }, this.#options.intervalMs);
    // Like a pending round, reading must not keep a process alive on its own.
    (this.#refreshTimer as { unref?: () => void }).unref?.();
  }

  /** New signed checkpoints (an append's): each tile's newest is submitted in the next round. */
  observe(checkpoints: readonly SignedCheckpoint[]): void {
    if (this.#closed) return;
    for (const checkpoint of checkpoints) {
      const tile = this.#tiles.get(checkpoint.tile_id);
      if (tile === undefined) this.#tiles.set(checkpoint.tile_id, { latest: checkpoint, collections: [], final: undefined });
      else if (checkpoint.tree_size > tile.latest.tree_size) tile.latest = checkpoint;
    }
    this.#schedule();
  }

  /** The proof with its finality for the configured quorum, and when `FINAL` the cosigned checkpoint and the consistency step to it. */
  async finish(proof: AnchorProof): Promise<AnchorProof> {
    const quorum = this.#options.quorum;
    const cosigned = this.#covering(proof.tile_id, proof.leaf_index, quorum);
    return cosigned === undefined ? { ...proof, finality: "PROVISIONAL" } : this.#final(proof, cosigned, quorum);
  }

  /** Resolves with the `FINAL` proof once a checkpoint covering it has `requested` cosignatures (at least the configured quorum); `FINALITY_TIMEOUT` after `timeoutMs`. */
  async waitFinal(proof: AnchorProof, requested: number, timeoutMs: number): Promise<AnchorProof> {
    // FINAL always means the configured quorum or more, whatever smaller one a caller asks for.
    const quorum = Math.max(requested, this.#options.quorum);
    const ready = this.#covering(proof.tile_id, proof.leaf_index, quorum);
    if (ready !== undefined) return this.#final(proof, ready, quorum);
    if (this.#closed) throw new TemporalError("AUTHORITY_CLOSED", "the authority closed before the anchor became FINAL");
    const cosigned = await new Promise<CosignedCheckpoint>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new FinalityTimeoutError({ ...proof, finality: "PROVISIONAL" }, quorum, timeoutMs));
      }, timeoutMs);
      const waiter: Waiter = {
        tileId: proof.tile_id,
        leafIndex: proof.leaf_index,
        quorum,
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      };
      this.#waiters.add(waiter);
    });
    return this.#final(proof, cosigned, quorum);
  }

  /** The BFT state for `clockchain/status`. */
  status(): WitnessingStatus {
    const quorum = this.#options.quorum;
    const tiles = [...this.#tiles.values()]
      .sort((a, b) => a.latest.tile_id - b.latest.tile_id)
      .map(({ latest, final }) => ({
        tile_id: latest.tile_id,
        tree_size: latest.tree_size,
        final_size: final?.tree_size ?? 0,
        quorum_met: final !== undefined && final.tree_size >= latest.tree_size,
        witnessed_unix_s: final === undefined ? null : witnessedTime(final, quorum),
        cosigned: final ?? null,
      }));
    const witnesses = this.#witnesses.map((witness) => ({
      name: witness.key.name,
      url: witness.url.href,
      vkey: witness.vkey,
      tiles: [...witness.tiles.values()].sort((a, b) => a.tile_id - b.tile_id),
      last_error: witness.lastError,
    }));
    return { quorum, health: this.#health(), witnesses, tiles, forks: [...this.#forks], store_error: this.#storeError, restore_dropped: [...this.#dropped] };
  }

  /** Stops the rounds, waits for one in progress and for the last save; waiters get `AUTHORITY_CLOSED`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    clearInterval(this.#refreshTimer);
    await this.#round;
    await this.#saving;
    for (const waiter of this.#waiters) waiter.reject(new TemporalError("AUTHORITY_CLOSED", "the authority closed before the anchor became FINAL"));
    this.#waiters.clear();
  }

  #health(): WitnessingHealth {
    if (this.#forks.length > 0) return "FORKED";
    const answering = this.#witnesses.filter((witness) => witness.lastError === null).length;
    if (answering < this.#options.quorum) return "STALLED";
    const behind = this.#witnesses.some((witness) =>
      [...this.#tiles.values()].some(({ final }) => final !== undefined && (witness.tiles.get(final.tile_id)?.cosigned_size ?? 0) < final.tree_size),
    );
    return behind || answering < this.#witnesses.length ? "DEGRADED" : "HEALTHY";
  }

  /** Starts a round one interval after the last one started, unless one is pending; a round in progress schedules the next itself. */
  #schedule(): void {
    if (this.#closed || this.#timer !== undefined || this.#round !== undefined) return;
    const delay = Math.max(0, this.#lastRoundStart + this.#options.intervalMs - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      // A round handles each witness's failure itself; anything else (a log that cannot give a proof) is reported, never left unhandled.
      const round = this.#runRound().catch((error: unknown) => void (this.#storeError = `a witnessing round failed: ${(error as Error).message}`));
      this.#round = round.finally(() => {
        this.#round = undefined;
        if (this.#behind().length > 0) this.#schedule();
      });
    }, delay);
    // A pending round must not keep a process alive on its own (Node, Deno); `close` or the next anchor drives it.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /**
   * Every (witness, tile) whose cosignature of the tile's latest checkpoint we do not hold: its cosigned size is
   * another, or it is that size but the cosignature was lost (a saved one that no longer verifies); an honest
   * witness cosigns the same checkpoint again.
   */
  #behind(): { witness: Witness; tile: TileWitnessing }[] {
    const pairs: { witness: Witness; tile: TileWitnessing }[] = [];
    for (const tile of this.#tiles.values()) {
      const { tile_id, tree_size, root_hash } = tile.latest;
      const held = tile.collections.find((collection) => collection.checkpoint.tree_size === tree_size && collection.checkpoint.root_hash === root_hash)?.lines;
      for (const witness of this.#witnesses) {
        // A witness that answered this very checkpoint with a fork will answer it the same way: asked again once the tile grows.
        const forked = this.#forks.some((fork) => fork.witness === witness.key.name && fork.tile_id === tile_id && fork.witness_size === tree_size);
        if (!forked && ((witness.tiles.get(tile_id)?.cosigned_size ?? 0) !== tree_size || held?.has(witness.key.name) !== true)) pairs.push({ witness, tile });
      }
    }
    return pairs;
  }

  async #runRound(): Promise<void> {
    this.#lastRoundStart = Date.now();
    const shared = this.#store.shared;
    if (shared === undefined) return this.#submitBehind();
    // One node at a time, each starting from what the others got and saving before the next starts (docs/witness.md).
    await shared.exclusively(async () => {
      await this.#refresh();
      await this.#submitBehind();
      await this.#saving;
    });
  }

  async #submitBehind(): Promise<void> {
    await Promise.all(this.#behind().map(({ witness, tile }) => this.#submit(witness, tile.latest)));
    this.#settle();
    this.#persist();
  }

  /** One submission: from the size the witness last cosigned; a 409 gives its real size, tried once more. */
  async #submit(witness: Witness, checkpoint: SignedCheckpoint): Promise<void> {
    const tileId = checkpoint.tile_id;
    const size = checkpoint.tree_size;
    let oldSize = witness.tiles.get(tileId)?.cosigned_size ?? 0;
    for (let attempt = 0; attempt < 2; attempt++) {
      if (oldSize > size)
        return this.#fail(witness, tileId, 409, `holds size ${oldSize} of tile ${tileId}, larger than the log's latest checkpoint (${size}): a rollback of the log or a fork`);
      let outcome;
      try {
        const proof = oldSize === 0 || oldSize === size ? [] : (await this.#log.consistencyProof(tileId, oldSize, size)).proof.map(hexToBytes);
        outcome = await submitCheckpoint(witness.url, { oldSize, proof, note: checkpoint.note }, { signal: AbortSignal.timeout(this.#options.requestTimeoutMs) });
      } catch (error) {
        return this.#fail(witness, tileId, null, (error as Error).message);
      }
      if (outcome.kind === "cosigned") return this.#accept(witness, checkpoint, outcome.signatures);
      if (outcome.kind === "refused") return this.#fail(witness, tileId, outcome.status, outcome.message || `answered ${outcome.status}`);
      if (outcome.size === size && oldSize === size) return this.#recordFork(witness, checkpoint);
      if (attempt === 1) return this.#fail(witness, tileId, 409, `answered 409 twice: its size for tile ${tileId} is ${outcome.size}`);
      oldSize = outcome.size;
    }
  }

  async #accept(witness: Witness, checkpoint: SignedCheckpoint, signatures: readonly NoteSignature[]): Promise<void> {
    const collection = this.#collection(checkpoint);
    const line = signatures.find((signature) => signature.name === witness.key.name && signature.keyId === witness.key.keyId);
    const cosignature = line === undefined ? undefined : readCosignature(line);
    if (line === undefined || cosignature === undefined || !(await (witness.verifier as NoteVerifier).verify(collection.text, line.signature))) {
      return this.#fail(witness, checkpoint.tile_id, 200, "answered 200 without a valid cosignature/v1 from its configured key");
    }
    collection.lines.set(witness.key.name, { line, timestamp: cosignature.timestamp });
    witness.tiles.set(checkpoint.tile_id, { tile_id: checkpoint.tile_id, cosigned_size: checkpoint.tree_size, cosigned_unix_s: cosignature.timestamp });
    witness.lastError = null;
  }

  #fail(witness: Witness, tileId: number, status: number | null, message: string): void {
    witness.lastError = { tile_id: tileId, status, message, unix_ms: Date.now() };
  }

  /** The witness holds another root for the size of our checkpoint: kept once per witness, tile and size. */
  #recordFork(witness: Witness, checkpoint: SignedCheckpoint): void {
    const message = `holds a different checkpoint for size ${checkpoint.tree_size} of tile ${checkpoint.tile_id} (409 on its own size): the log signed two trees of that size, or the witness was shown a forged one`;
    this.#fail(witness, checkpoint.tile_id, 409, message);
    const known = this.#forks.some((fork) => fork.witness === witness.key.name && fork.tile_id === checkpoint.tile_id && fork.witness_size === checkpoint.tree_size);
    if (!known)
      this.#forks.push({ tile_id: checkpoint.tile_id, witness: witness.key.name, note: checkpoint.note, witness_size: checkpoint.tree_size, message, detected_unix_ms: Date.now() });
  }

  #collection(checkpoint: SignedCheckpoint): Collection {
    const tile = this.#tiles.get(checkpoint.tile_id) as TileWitnessing;
    let collection = tile.collections.find((candidate) => candidate.checkpoint.tree_size === checkpoint.tree_size && candidate.checkpoint.root_hash === checkpoint.root_hash);
    if (collection === undefined) {
      collection = { checkpoint, text: parseNote(checkpoint.note).text, lines: new Map() };
      tile.collections.push(collection);
      tile.collections.sort((a, b) => a.checkpoint.tree_size - b.checkpoint.tree_size);
    }
    return collection;
  }

  /** After a round: each tile's final checkpoint, waiters that can go, and collections a newer one subsumes dropped. */
  #settle(): void {
    for (const tile of this.#tiles.values()) {
      for (const collection of tile.collections) {
        if (collection.lines.size >= this.#options.quorum && (tile.final === undefined || collection.checkpoint.tree_size >= tile.final.tree_size)) tile.final = cosignedOf(collection);
      }
      tile.collections = tile.collections.filter((collection, i) => !tile.collections.slice(i + 1).some((newer) => [...collection.lines.keys()].every((name) => newer.lines.has(name))));
    }
    for (const waiter of this.#waiters) {
      const cosigned = this.#covering(waiter.tileId, waiter.leafIndex, waiter.quorum);
      if (cosigned === undefined) continue;
      this.#waiters.delete(waiter);
      waiter.resolve(cosigned);
    }
  }

  /** The newest checkpoint of the tile with `quorum` valid cosignatures whose tree holds the leaf. */
  #covering(tileId: number, leafIndex: number, quorum: number): CosignedCheckpoint | undefined {
    const tile = this.#tiles.get(tileId);
    if (tile === undefined) return undefined;
    const collection = tile.collections.findLast((candidate) => candidate.lines.size >= quorum && candidate.checkpoint.tree_size > leafIndex);
    if (collection !== undefined) return cosignedOf(collection);
    const { final } = tile;
    return final !== undefined && final.cosignatures.length >= quorum && final.tree_size > leafIndex ? final : undefined;
  }

  async #final(proof: AnchorProof, cosigned: CosignedCheckpoint, quorum: number): Promise<AnchorProof> {
    const [first, second] = proof.tree_size <= cosigned.tree_size ? [proof.tree_size, cosigned.tree_size] : [cosigned.tree_size, proof.tree_size];
    const consistency = first === second ? [] : (await this.#log.consistencyProof(proof.tile_id, first, second)).proof;
    return { ...proof, finality: "FINAL", witnessed: { checkpoint: cosigned, consistency_proof: consistency, quorum, witnessed_unix_s: witnessedTime(cosigned, quorum) } };
  }

  /** Queues a save of the current record when it changed (or the last save failed); a failure is reported in the status until a save succeeds. */
  #persist(): void {
    const record: WitnessingRecord = {
      cosigned: [...this.#tiles.values()].flatMap(({ final }) => (final === undefined ? [] : [final])),
      witnesses: Object.fromEntries(this.#witnesses.map((witness) => [witness.key.name, [...witness.tiles.values()]])),
      forks: [...this.#forks],
    };
    const json = JSON.stringify(record);
    if (json === this.#savedJson && this.#storeError === null) return;
    this.#savedJson = json;
    this.#saving = this.#saving
      .then(() => this.#store.save(record))
      .then(
        () => void (this.#storeError = null),
        (error: unknown) => void (this.#storeError = `saving the witnessing state failed: ${(error as Error).message}`),
      );
  }

  /**
   * Takes back a saved record: cosignatures are verified again with the configured keys, witnesses no longer configured
   * are forgotten, and an entry whose shape is wrong or whose fields are not its note's is dropped (and reported).
   */
  async #restore(record: WitnessingRecord): Promise<void> {
    for (const witness of this.#witnesses) {
      const saved: unknown = record.witnesses[witness.key.name] ?? [];
      for (const state of Array.isArray(saved) ? saved : [saved]) {
        if (!isTileState(state)) this.#drop(`witnesses.${witness.key.name}: ${describeEntry(state)} is not { tile_id, cosigned_size, cosigned_unix_s }`);
        // A witness never goes back: what this node saw itself may be newer than what was saved.
        else if ((witness.tiles.get(state.tile_id)?.cosigned_size ?? -1) < state.cosigned_size) witness.tiles.set(state.tile_id, state);
      }
    }
    for (const fork of record.forks) {
      if (!isForkEvidence(fork)) this.#drop(`forks: ${describeEntry(fork)} is not { tile_id, witness, note, witness_size, message, detected_unix_ms }`);
      else if (!this.#forks.some((known) => known.witness === fork.witness && known.tile_id === fork.tile_id && known.witness_size === fork.witness_size)) this.#forks.push(fork);
    }
    for (const saved of record.cosigned) {
      const checkpoint = savedCheckpointOf(saved);
      if (checkpoint === undefined) {
        this.#drop(`cosigned: ${describeEntry(saved)} is not a signed checkpoint whose tile_id, tree_size and root_hash are its note's`);
        continue;
      }
      // Held exactly so already (read before from a shared store, or made by this node): its lines were verified then.
      if (this.#tiles.get(checkpoint.tile_id)?.final?.note === saved.note) continue;
      const { text, signatures } = parseNote(saved.note);
      const lines = new Map<string, { line: NoteSignature; timestamp: number }>();
      for (const line of signatures) {
        const witness = this.#witnesses.find((candidate) => candidate.key.name === line.name && candidate.key.keyId === line.keyId);
        const cosignature = readCosignature(line);
        if (witness !== undefined && cosignature !== undefined && (await (witness.verifier as NoteVerifier).verify(text, line.signature)))
          lines.set(line.name, { line, timestamp: cosignature.timestamp });
      }
      this.#takeBack(checkpoint, text, lines);
    }
    this.#settle();
  }

  /** A saved cosigned checkpoint's valid lines joined to what this node holds of the tile; a larger one becomes the tile's latest. */
  #takeBack(checkpoint: SignedCheckpoint, text: string, lines: Collection["lines"]): void {
    const tile = this.#tiles.get(checkpoint.tile_id);
    if (tile === undefined) {
      this.#tiles.set(checkpoint.tile_id, { latest: checkpoint, collections: [{ checkpoint, text, lines }], final: undefined });
      return;
    }
    if (checkpoint.tree_size > tile.latest.tree_size) tile.latest = checkpoint;
    const held = this.#collection(checkpoint).lines;
    for (const [name, line] of lines) if (!held.has(name)) held.set(name, line);
  }

  /** Reports an entry not taken back, once however often a shared record is read again. */
  #drop(reason: string): void {
    if (!this.#dropped.includes(reason)) this.#dropped.push(reason);
  }
}

/** The log's checkpoint of a saved cosigned one, when its fields are exactly its note's body; else undefined. */
function savedCheckpointOf(saved: unknown): SignedCheckpoint | undefined {
  if (typeof saved !== "object" || saved === null || !Array.isArray((saved as { cosignatures?: unknown }).cosignatures)) return undefined;
  try {
    const checkpoint = logCheckpointOf(saved as CosignedCheckpoint);
    return isSignedCheckpoint(checkpoint) ? checkpoint : undefined;
  } catch {
    return undefined;
  }
}

function isTileState(value: unknown): value is WitnessTileState {
  const state = value as Partial<Record<keyof WitnessTileState, unknown>> | null;
  return typeof state === "object" && state !== null && isCount(state.tile_id) && isCount(state.cosigned_size) && isCount(state.cosigned_unix_s);
}

function isForkEvidence(value: unknown): value is ForkEvidence {
  const fork = value as Partial<Record<keyof ForkEvidence, unknown>> | null;
  return (
    typeof fork === "object" &&
    fork !== null &&
    isCount(fork.tile_id) &&
    typeof fork.witness === "string" &&
    typeof fork.note === "string" &&
    isCount(fork.witness_size) &&
    typeof fork.message === "string" &&
    isCount(fork.detected_unix_ms)
  );
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** A short description of a saved entry for the status: its tile when it has one. */
function describeEntry(value: unknown): string {
  const tile = (value as { tile_id?: unknown } | null)?.tile_id;
  return typeof tile === "number" ? `the entry of tile ${tile}` : "an entry";
}

/** The collection as a cosigned checkpoint: the log's note followed by the valid cosignature lines, by witness name. */
function cosignedOf(collection: Collection): CosignedCheckpoint {
  const entries = [...collection.lines.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const { checkpoint } = collection;
  return {
    ...checkpoint,
    note: checkpoint.note + entries.map(([, { line }]) => formatSignatureLine(line)).join(""),
    cosignatures: entries.map(([witness, { timestamp }]) => ({ witness, timestamp })).sort((a, b) => a.timestamp - b.timestamp),
  };
}

/** A cosigned checkpoint as the log signed it: its note without the witnesses' lines (the log's own line comes first). */
function logCheckpointOf(cosigned: CosignedCheckpoint): SignedCheckpoint {
  const { cosignatures: _cosignatures, ...checkpoint } = cosigned;
  const note = parseNote(cosigned.note);
  const witnesses = new Set(cosigned.cosignatures.map((cosignature) => cosignature.witness));
  const own = note.signatures.filter((signature) => !witnesses.has(signature.name));
  return { ...checkpoint, note: `${note.text}\n${own.map(formatSignatureLine).join("")}` };
}

/** The `quorum`-th smallest cosignature timestamp: by then at least `quorum` witnesses had seen the checkpoint. */
function witnessedTime(cosigned: CosignedCheckpoint, quorum: number): number {
  const timestamps = cosigned.cosignatures.map((cosignature) => cosignature.timestamp).sort((a, b) => a - b);
  return timestamps[Math.min(quorum, timestamps.length) - 1] as number;
}
