/**
 * The log's side of witnessing (C2SP tlog-witness): after appends, each
 * tile's latest signed checkpoint goes to every witness with a consistency
 * proof from the size that witness last cosigned, in rounds at most one per
 * interval (so many anchors share one submission), and the cosignatures
 * that verify are collected per checkpoint. A checkpoint with `quorum` of
 * them makes the anchors it covers `FINAL`. Platform-free: `fetch`,
 * WebCrypto, timers. docs/witness.md describes the protocol and the states.
 */

import { cosignatureVerifier, findCosignature } from "../core/cosignature.js";
import { hexToBytes, isHash } from "../core/encoding.js";
import { TemporalError } from "../core/errors.js";
import type { NoteVerifier } from "../core/note-key.js";
import type { AnchorPage, ConsistencyProof, TileStatus } from "../core/service-types.js";
import { isSignedCheckpoint } from "../core/signed-checkpoint.js";
import { formatSignatureLine, parseNote, type NoteSignature } from "../core/signed-note.js";
import type { AnchorProof, SignedCheckpoint } from "../core/types.js";
import { submitCheckpoint } from "../core/witness-client.js";
import type { CosignedCheckpoint, ForkEvidence, WitnessError, WitnessReachability, WitnessTileState, WitnessingHealth, WitnessingStatus } from "../core/witnessing-types.js";
import type { LogKeys } from "./log-keys.js";
import { onceUnlessRejected } from "./once-unless-rejected.js";
import { FinalityTimeoutError } from "../core/finality.js";
import { checkWitnessingOptions, type CheckedWitnessingOptions, type ParsedEndpoint, type WitnessingOptions } from "./witnessing-options.js";
import { MemoryWitnessingStore, type WitnessingRecord, type WitnessingStore } from "./witnessing-store.js";

/** The start of the status's `store_error` when reading a shared store failed. */
const REFRESH_FAILED = "reading the shared witnessing state failed";
/** The start of the status's `round_error` when a round failed (not a witness's failure: the log's, or the shared store's turn). */
const ROUND_FAILED = "a witnessing round failed";

/**
 * What witnessing needs of the log (a `LogStore` is one): consistency proofs between its tile trees (and so its root at
 * a size), and a tile's latest signed checkpoint (the proof of any of its anchors carries it), to submit after a restart.
 */
export interface WitnessedLog {
  consistencyProof(tileId: number, first: number, second: number): Promise<ConsistencyProof>;
  page(tileId: number, offset: number, limit: number): Promise<AnchorPage>;
  proof(receiptHash: string): Promise<AnchorProof | undefined>;
}

/** Fork evidence kept per witness; more is counted (`forks_not_kept`), so a witness that forks on every size cannot fill memory or the saved state. */
const MAX_FORKS_PER_WITNESS = 16;

interface Witness extends ParsedEndpoint {
  verifier: NoteVerifier | undefined;
  readonly tiles: Map<number, WitnessTileState>;
  lastError: WitnessError | null;
  state: WitnessReachability;
  /** Rounds in a row whose submission failed: the backoff's exponent. */
  failures: number;
  /** Not asked again before this (Unix ms); 0 when not backing off. */
  retryAt: number;
  forksNotKept: number;
  /** Per tile, the largest size this witness answered with a fork (kept or only counted): not asked that checkpoint again. */
  readonly forkedAt: Map<number, number>;
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
  /** When the pending round starts (Unix ms). */
  #timerAt = 0;
  /** Each witness's submissions in progress: a round never waits for a slow witness, and never asks one twice at once. */
  readonly #inFlight = new Map<Witness, Promise<boolean>>();
  /** Aborted by `close`: a witness that does not answer does not hold the close for its request timeout. */
  readonly #closing = new AbortController();
  #lastRoundStart = Number.NEGATIVE_INFINITY;
  #closed = false;
  #saving: Promise<void> = Promise.resolve();
  /** Why the last save or read of the store failed; cleared by the next that succeeds. */
  #storeError: string | null = null;
  /** Why the last round (`ROUND_FAILED`, cleared by a later round that failed nowhere) or finding the tiles' latest checkpoints after open failed. */
  #roundError: string | null = null;
  /** The record last handed to the store, as JSON: a round that changed nothing saves nothing. */
  #savedJson: string | undefined;
  /** Entries of the saved record that were not taken back (or cosigned checkpoints the log no longer agrees with), and why: reported in the status. */
  readonly #dropped: string[] = [];
  /** With a shared store: the record last read from it, as JSON (an unchanged one is not taken back again), and the timer that reads it. */
  #loadedJson: string | undefined;
  #refreshTimer: ReturnType<typeof setInterval> | undefined;
  /** With a shared store: the round holding the turn, if any (rounds of a shared store are one at a time, see `#runRound`). */
  #sharedRound: Promise<void> | undefined;
  /** The log's keys, given by `open`: a saved cosigned checkpoint counts only when one of them signed it. */
  #keys: LogKeys | undefined;
  /** Cosigned checkpoints the log contradicted (`checkpointKey`): a reply still under way for one gathers nothing. */
  readonly #forgotten = new Set<string>();
  /**
   * False until `open` found each tile's latest checkpoint: no round before, since a witness's saved size can be beyond
   * the tile's saved final checkpoint (it cosigned a later one) and would look like a rollback of the log.
   */
  #resumed = false;
  /** Fetching each tile's latest checkpoint after open, which `close` waits for. */
  #resuming: Promise<void> = Promise.resolve();

  /** Throws `INVALID_WITNESSING` / `QUORUM_UNREACHABLE` for bad options; does no I/O until `open`. */
  constructor(options: WitnessingOptions, log: WitnessedLog) {
    this.#options = checkWitnessingOptions(options);
    this.#log = log;
    this.#store = options.store ?? new MemoryWitnessingStore();
    this.#witnesses = this.#options.endpoints.map((endpoint) => ({
      ...endpoint,
      verifier: undefined,
      tiles: new Map(),
      lastError: null,
      state: "UNKNOWN",
      failures: 0,
      retryAt: 0,
      forksNotKept: 0,
      forkedAt: new Map(),
    }));
  }

  get quorum(): number {
    return this.#options.quorum;
  }

  get witnessCount(): number {
    return this.#witnesses.length;
  }

  /**
   * Imports the witnesses' keys and loads what the store kept (once), checking it against the log (`keys` signed it,
   * its roots are the log's), then, in the background, submits the latest checkpoint of every tile in `tiles` (the
   * log's status) that is newer than what was kept: after a restart no tile's unwitnessed checkpoint waits for its
   * next append.
   */
  async open(keys: LogKeys, tiles: readonly TileStatus[]): Promise<void> {
    this.#keys = keys;
    await this.#load();
    this.#resumeTiles(tiles);
    // Only then the first round (what was kept may itself be behind: a witness that had not cosigned the saved checkpoint).
    this.#resuming = this.#resuming.then(() => {
      this.#resumed = true;
      this.#schedule();
    });
  }

  /** Queues `#resume` after any still in progress; a failure is reported in the status, never left unhandled. */
  #resumeTiles(tiles: readonly Pick<TileStatus, "tile_id" | "tree_size">[]): void {
    this.#resuming = this.#resuming
      .then(() => this.#resume(tiles))
      .catch((error: unknown) => void (this.#roundError = `finding the tiles' latest checkpoints failed: ${(error as Error).message}`));
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
      if (this.#sharedRound !== undefined) return;
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

  /** Observes the latest checkpoint of each tile the log holds a newer one of than witnessing knows. */
  async #resume(tiles: readonly Pick<TileStatus, "tile_id" | "tree_size">[]): Promise<void> {
    for (const { tile_id, tree_size } of tiles) {
      if (this.#closed) return;
      if ((this.#tiles.get(tile_id)?.latest.tree_size ?? 0) >= tree_size) continue;
      const latest = await this.#latestOf(tile_id);
      if (latest !== undefined) this.observe([latest]);
    }
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
    const deadline = Date.now() + timeoutMs;
    let cosigned = this.#covering(proof.tile_id, proof.leaf_index, quorum);
    for (;;) {
      if (cosigned !== undefined) {
        const final = await this.#final(proof, cosigned, quorum);
        // PROVISIONAL: the log's tree contradicted that cosigned checkpoint (dropped, reported); wait for another.
        if (final.finality === "FINAL") return final;
      }
      if (this.#closed) throw new TemporalError("AUTHORITY_CLOSED", "the authority closed before the anchor became FINAL");
      // Checked again first: a round may have settled another covering checkpoint while `#final` asked the log, and its waiters were resolved then.
      cosigned = this.#covering(proof.tile_id, proof.leaf_index, quorum) ?? (await this.#nextCovering(proof, quorum, deadline, timeoutMs));
    }
  }

  /** The next checkpoint covering the proof's leaf with `quorum` cosignatures; `FINALITY_TIMEOUT` at `deadline`. */
  #nextCovering(proof: AnchorProof, quorum: number, deadline: number, timeoutMs: number): Promise<CosignedCheckpoint> {
    return new Promise<CosignedCheckpoint>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          this.#waiters.delete(waiter);
          reject(new FinalityTimeoutError({ ...proof, finality: "PROVISIONAL" }, quorum, timeoutMs));
        },
        Math.max(0, deadline - Date.now()),
      );
      const waiter: Waiter = {
        tileId: proof.tile_id,
        leafIndex: proof.leaf_index,
        quorum,
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      };
      this.#waiters.add(waiter);
    });
  }

  /** The BFT state for `clockchain/status`. */
  status(): WitnessingStatus {
    const quorum = this.#options.quorum;
    const now = Date.now();
    const tiles = [...this.#tiles.values()]
      .sort((a, b) => a.latest.tile_id - b.latest.tile_id)
      .map((tile) => {
        const { latest, final } = tile;
        const held = heldOfLatest(tile);
        const cosignatures = held?.size ?? 0;
        return {
          tile_id: latest.tile_id,
          tree_size: latest.tree_size,
          final_size: final?.tree_size ?? 0,
          quorum_met: final !== undefined && final.tree_size >= latest.tree_size,
          witnessed_unix_s: final === undefined ? null : (witnessedTime(final, quorum) ?? null),
          cosigned: final ?? null,
          cosignatures,
          health: this.#tileHealth(tile, held),
        };
      });
    const witnesses = this.#witnesses.map((witness) => ({
      name: witness.key.name,
      url: witness.url.href,
      vkey: witness.vkey,
      tiles: [...witness.tiles.values()].sort((a, b) => a.tile_id - b.tile_id),
      last_error: witness.lastError,
      state: witness.state,
      consecutive_failures: witness.failures,
      // Null once the time has come: the witness is asked in the next round, not waiting any more.
      next_attempt_unix_ms: witness.retryAt <= now ? null : witness.retryAt,
      forks_not_kept: witness.forksNotKept,
    }));
    return { quorum, health: this.#health(), witnesses, tiles, forks: [...this.#forks], store_error: this.#storeError, round_error: this.#roundError, restore_dropped: [...this.#dropped] };
  }

  /** Stops the rounds, waits for one in progress and for the last save; waiters get `AUTHORITY_CLOSED`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    clearInterval(this.#refreshTimer);
    this.#closing.abort();
    await this.#resuming;
    await Promise.all(this.#inFlight.values());
    await this.#sharedRound;
    await this.#saving;
    for (const waiter of this.#waiters) waiter.reject(new TemporalError("AUTHORITY_CLOSED", "the authority closed before the anchor became FINAL"));
    this.#waiters.clear();
  }

  /** Witnesses whose last submission failed: more than n - k of them and no new checkpoint can reach the quorum. */
  #failing(): number {
    return this.#witnesses.filter((witness) => witness.state === "FAILING").length;
  }

  #health(): WitnessingHealth {
    if (this.#forks.length > 0) return "FORKED";
    if (this.#witnesses.length - this.#failing() < this.#options.quorum) return "STALLED";
    const behind = this.#witnesses.some((witness) =>
      [...this.#tiles.values()].some(({ final }) => final !== undefined && (witness.tiles.get(final.tile_id)?.cosigned_size ?? 0) < final.tree_size),
    );
    // A witness that has not replied yet (UNKNOWN) while a checkpoint waits for it is not known to answer: not HEALTHY,
    // though not failing either. One with nothing to cosign (an empty log, or a restored state it had all cosigned) is not held against it.
    const waiting = new Set(this.#behind().map(({ witness }) => witness));
    const unsure = this.#witnesses.some((witness) => witness.state === "FAILING" || (witness.state === "UNKNOWN" && waiting.has(witness)));
    return behind || unsure ? "DEGRADED" : "HEALTHY";
  }

  /**
   * One tile's health, for its latest checkpoint: every witness cosigned it, some did not yet, or too many fail for it
   * to reach the quorum. `held` is `heldOfLatest(tile)`, which the caller has already looked up.
   */
  #tileHealth(tile: TileWitnessing, held: ReadonlyMap<string, unknown> | undefined): WitnessingHealth {
    const { tile_id } = tile.latest;
    if (this.#forks.some((fork) => fork.tile_id === tile_id)) return "FORKED";
    if ((held?.size ?? 0) === this.#witnesses.length) return "HEALTHY";
    const couldCosign = this.#witnesses.filter((witness) => held?.has(witness.key.name) === true || witness.state !== "FAILING").length;
    return couldCosign < this.#options.quorum ? "STALLED" : "DEGRADED";
  }

  /**
   * Starts a round one interval after the last one started, and not before the first witness behind may be asked
   * again (backoff); a witness whose submissions are in progress schedules again when they end. A pending round set
   * for a backing-off witness is brought forward when a new checkpoint is due for the others, so one dead witness
   * never delays the rest.
   */
  #schedule(): void {
    if (this.#closed || !this.#resumed) return;
    const now = Date.now();
    const behind = this.#behind().filter(({ witness }) => !this.#inFlight.has(witness));
    if (behind.length === 0) return;
    const at = Math.max(now, this.#lastRoundStart + this.#options.intervalMs, Math.min(...behind.map(({ witness }) => witness.retryAt)));
    if (this.#timer !== undefined) {
      if (this.#timerAt <= at) return;
      clearTimeout(this.#timer);
    }
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#runRound();
    }, at - now);
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
      const { tile_id, tree_size } = tile.latest;
      const held = heldOfLatest(tile);
      for (const witness of this.#witnesses) {
        // A witness that answered this very checkpoint with a fork will answer it the same way: asked again once the tile grows.
        const forked = witness.forkedAt.get(tile_id) === tree_size;
        if (!forked && ((witness.tiles.get(tile_id)?.cosigned_size ?? 0) !== tree_size || held?.has(witness.key.name) !== true)) pairs.push({ witness, tile });
      }
    }
    return pairs;
  }

  /**
   * Submits each due witness its tiles' latest checkpoints, without waiting: as each witness's submissions end, the
   * cosignatures are settled (a quorum is reached as soon as its k-th witness answers, not the slowest), the state
   * saved and the next round scheduled. A witness backing off, or still answering the last round, is left out.
   */
  #runRound(): void {
    const shared = this.#store.shared;
    if (shared === undefined) {
      void this.#startSubmissions();
      return;
    }
    if (this.#sharedRound !== undefined) return;
    this.#lastRoundStart = Date.now();
    // One node at a time, each starting from what the others got and saving before the next starts (docs/witness.md).
    this.#sharedRound = shared
      .exclusively(async () => {
        await this.#refresh();
        await Promise.all(this.#startSubmissions());
        await this.#saving;
      })
      .then(
        () => undefined,
        (error: unknown) => void (this.#roundError = `${ROUND_FAILED}: ${(error as Error).message}`),
      )
      .finally(() => {
        this.#sharedRound = undefined;
        this.#schedule();
      });
  }

  /** The submissions of a round, started: each due witness's, settled, saved and followed by scheduling as each ends; true when none failed. */
  #startSubmissions(): Promise<boolean>[] {
    const now = (this.#lastRoundStart = Date.now());
    const due = new Map<Witness, SignedCheckpoint[]>();
    for (const { witness, tile } of this.#behind()) {
      if (witness.retryAt <= now && !this.#inFlight.has(witness)) due.set(witness, [...(due.get(witness) ?? []), tile.latest]);
    }
    const started: Promise<boolean>[] = [];
    for (const [witness, checkpoints] of due) {
      // All settled, not the first failure: the witness stays in flight (never asked twice at once, waited for by `close`) until every submission ended.
      const submissions = Promise.allSettled(checkpoints.map((checkpoint) => this.#submit(witness, checkpoint)))
        // A submission handles the witness's failure itself; anything else (a log that cannot give a proof) is reported, never left unhandled.
        .then((results) => {
          const failed = results.find((result) => result.status === "rejected");
          if (failed !== undefined) this.#roundError = `${ROUND_FAILED}: ${(failed.reason as Error).message}`;
          return failed === undefined;
        })
        .finally(() => {
          this.#inFlight.delete(witness);
          this.#settle();
          this.#persist();
          this.#schedule();
        });
      this.#inFlight.set(witness, submissions);
      started.push(submissions);
    }
    // A round that failed nowhere clears an earlier round's error (not a failure to find the tiles' checkpoints after open).
    void Promise.all(started).then((ok) => {
      if (ok.every(Boolean) && this.#roundError?.startsWith(ROUND_FAILED) === true) this.#roundError = null;
    });
    // For the witnesses left out while backing off.
    this.#schedule();
    return started;
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
        outcome = await submitCheckpoint(
          witness.url,
          { oldSize, proof, note: checkpoint.note },
          { signal: AbortSignal.any([this.#closing.signal, AbortSignal.timeout(this.#options.requestTimeoutMs)]) },
        );
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
    // The line of the configured key that verifies, whatever other lines (other keys, other algorithms) the reply carries.
    const found = await findCosignature(parseNote(checkpoint.note).text, signatures, witness.verifier as NoteVerifier);
    if (found === undefined) return this.#fail(witness, checkpoint.tile_id, 200, "answered 200 without a valid cosignature/v1 from its configured key");
    // Forgotten while the request was under way (the log contradicted it), or its tile no longer tracked: the line counts
    // for nothing, though the witness's size is still what it now holds.
    this.#collection(checkpoint)?.lines.set(witness.key.name, found);
    witness.tiles.set(checkpoint.tile_id, { tile_id: checkpoint.tile_id, cosigned_size: checkpoint.tree_size, cosigned_unix_s: found.timestamp });
    witness.lastError = null;
    witness.state = "ANSWERING";
    witness.failures = 0;
    witness.retryAt = 0;
  }

  /** Keeps the failure and backs the witness off: asked again after 1, 2, 4, ... intervals, at most `backoffMaxMs`; once per round, whatever the tiles. */
  #fail(witness: Witness, tileId: number, status: number | null, message: string): void {
    const now = Date.now();
    witness.lastError = { tile_id: tileId, status, message, unix_ms: now };
    witness.state = "FAILING";
    if (witness.retryAt > now) return;
    witness.failures += 1;
    witness.retryAt = now + Math.min(this.#options.intervalMs * 2 ** (witness.failures - 1), this.#options.backoffMaxMs);
  }

  /** The witness holds another root for the size of our checkpoint: kept once per witness, tile and size. */
  #recordFork(witness: Witness, checkpoint: SignedCheckpoint): void {
    const message = `holds a different checkpoint for size ${checkpoint.tree_size} of tile ${checkpoint.tile_id} (409 on its own size): the log signed two trees of that size, or the witness was shown a forged one`;
    this.#fail(witness, checkpoint.tile_id, 409, message);
    this.#keepFork({
      tile_id: checkpoint.tile_id,
      witness: witness.key.name,
      note: checkpoint.note,
      witness_note: null,
      consistency_proof: null,
      witness_size: checkpoint.tree_size,
      message,
      detected_unix_ms: Date.now(),
    });
  }

  /** Keeps evidence once per witness, tile and size, the first `MAX_FORKS_PER_WITNESS` per witness; more is counted. */
  #keepFork(fork: ForkEvidence): void {
    const witness = this.#witnesses.find((candidate) => candidate.key.name === fork.witness);
    if (witness === undefined) return;
    const same = (kept: ForkEvidence) => kept.witness === fork.witness && kept.tile_id === fork.tile_id && kept.witness_size === fork.witness_size;
    if (witness.forkedAt.get(fork.tile_id) === fork.witness_size || this.#forks.some(same)) return;
    witness.forkedAt.set(fork.tile_id, Math.max(fork.witness_size, witness.forkedAt.get(fork.tile_id) ?? 0));
    if (this.#forks.filter((kept) => kept.witness === fork.witness).length >= MAX_FORKS_PER_WITNESS) witness.forksNotKept += 1;
    else this.#forks.push(fork);
  }

  /** The cosignatures gathered for the checkpoint (a new collection if none yet); undefined for a tile not tracked or a checkpoint forgotten. */
  #collection(checkpoint: SignedCheckpoint): Collection | undefined {
    const tile = this.#tiles.get(checkpoint.tile_id);
    if (tile === undefined || this.#forgotten.has(checkpointKey(checkpoint))) return undefined;
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

  /**
   * The proof made FINAL by `cosigned`, once the log confirms it: the log's roots at both sizes are the proof's and
   * the cosigned checkpoint's (else the cosigned one is not this log's history any more, e.g. a log restored from an
   * older backup: it is dropped, reported, and the proof stays PROVISIONAL), and `quorum` cosignatures give the time.
   */
  async #final(proof: AnchorProof, cosigned: CosignedCheckpoint, quorum: number): Promise<AnchorProof> {
    const witnessedUnixS = witnessedTime(cosigned, quorum);
    if (witnessedUnixS === undefined) return { ...proof, finality: "PROVISIONAL" };
    const [small, large] = proof.tree_size <= cosigned.tree_size ? [proof, cosigned] : [cosigned, proof];
    let consistency: readonly string[] | undefined;
    try {
      const step = await this.#log.consistencyProof(proof.tile_id, small.tree_size, large.tree_size);
      if (step.first_root === small.root_hash && step.second_root === large.root_hash) consistency = small.tree_size === large.tree_size ? [] : step.proof;
    } catch (error) {
      if (!isBeyondTree(error)) throw error;
    }
    if (consistency === undefined) {
      this.#forget(cosigned, `the log's tree does not hold the cosigned checkpoint of tile ${cosigned.tile_id} of size ${cosigned.tree_size} (root ${cosigned.root_hash})`);
      return { ...proof, finality: "PROVISIONAL" };
    }
    return { ...proof, finality: "FINAL", witnessed: { checkpoint: cosigned, consistency_proof: consistency, quorum, witnessed_unix_s: witnessedUnixS } };
  }

  /** Stops using a cosigned checkpoint the log contradicts: no proof is made FINAL by it again; the reason is reported. */
  #forget(cosigned: CosignedCheckpoint, reason: string): void {
    // After close nothing is saved or resumed any more (a proof read late must not queue either).
    if (this.#closed) return;
    this.#forgotten.add(checkpointKey(cosigned));
    const tile = this.#tiles.get(cosigned.tile_id);
    if (tile === undefined) return;
    const same = (checkpoint: SignedCheckpoint) => checkpoint.tree_size === cosigned.tree_size && checkpoint.root_hash === cosigned.root_hash;
    tile.collections = tile.collections.filter((collection) => !same(collection.checkpoint));
    if (tile.final !== undefined && same(tile.final)) tile.final = undefined;
    // Never submitted again: the log's own latest checkpoint of the tile takes its place.
    if (same(tile.latest)) {
      this.#tiles.delete(cosigned.tile_id);
      this.#resumeTiles([{ tile_id: cosigned.tile_id, tree_size: 1 }]);
    }
    this.#drop(reason);
    this.#persist();
  }

  /** Queues a save of the current record when it changed (or the last save failed); a failure is reported in the status until a save succeeds. */
  #persist(): void {
    const record: WitnessingRecord = {
      cosigned: [...this.#tiles.values()].flatMap(({ final }) => (final === undefined ? [] : [final])),
      witnesses: Object.fromEntries(this.#witnesses.map((witness) => [witness.key.name, [...witness.tiles.values()]])),
      forks: [...this.#forks],
      forks_not_kept: Object.fromEntries(this.#witnesses.flatMap((witness) => (witness.forksNotKept === 0 ? [] : [[witness.key.name, witness.forksNotKept]]))),
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
      const notKept: unknown = record.forks_not_kept?.[witness.key.name];
      if (isCount(notKept)) witness.forksNotKept = notKept;
    }
    for (const fork of record.forks) {
      // Evidence saved before witness_note or consistency_proof existed has none.
      const evidence = typeof fork === "object" && fork !== null ? { witness_note: null, consistency_proof: null, ...(fork as object) } : fork;
      if (isForkEvidence(evidence)) this.#keepFork(evidence);
      else this.#drop(`forks: ${describeEntry(fork)} is not { tile_id, witness, note, witness_note, consistency_proof, witness_size, message, detected_unix_ms }`);
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
      for (const witness of this.#witnesses) {
        const found = await findCosignature(text, signatures, witness.verifier as NoteVerifier);
        if (found !== undefined) lines.set(witness.key.name, found);
      }
      if (await this.#contradictsLog(checkpoint, saved.note, lines)) continue;
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
    const held = this.#collection(checkpoint)?.lines;
    for (const [name, line] of lines) if (held?.has(name) === false) held.set(name, line);
  }

  /** Reports an entry not taken back, once however often a shared record is read again. */
  #drop(reason: string): void {
    if (!this.#dropped.includes(reason)) this.#dropped.push(reason);
  }

  /**
   * True (and reported) when a saved cosigned checkpoint is not the log's: none of its keys signed it, or the log's
   * tree of that size has another root or does not exist. Another root under the log's own signature is a fork the
   * witnesses saw: kept as evidence with both notes, the log's latest checkpoint of the tile and the cosigned one, and
   * the log's consistency proof from that size to its latest (which gives the log's root there to a third party).
   */
  async #contradictsLog(checkpoint: SignedCheckpoint, cosignedNote: string, lines: ReadonlyMap<string, { readonly line: NoteSignature }>): Promise<boolean> {
    const { tile_id, tree_size, root_hash, origin } = checkpoint;
    const at = `cosigned: the checkpoint of tile ${tile_id} of size ${tree_size}`;
    // Every key whose key ID the line carries is tried (4-byte key IDs may collide).
    if ((await (this.#keys as LogKeys).verifiedSignatureOf(parseNote(checkpoint.note), origin)) === undefined) {
      this.#drop(`${at} is not signed by the log's keys (the current one or a previous one)`);
      return true;
    }
    let logRoot: string;
    try {
      logRoot = (await this.#log.consistencyProof(tile_id, tree_size, tree_size)).first_root;
    } catch (error) {
      if (!isBeyondTree(error)) throw error;
      this.#drop(`${at} is beyond the log's tree of that tile (${(error as Error).message}): the log was restored from an older state, or the file is another log's`);
      return true;
    }
    if (logRoot === root_hash) return false;
    this.#drop(`${at} has root ${root_hash}, the log's tree of that size has root ${logRoot}: both signed by the log's key (kept in forks)`);
    // The log holds a tree of this size, so an anchor and its latest checkpoint (of this size or larger).
    const latest = (await this.#latestOf(tile_id)) as SignedCheckpoint;
    const { tile_id: _tile, ...consistency } = await this.#log.consistencyProof(tile_id, tree_size, latest.tree_size);
    for (const name of lines.keys()) {
      this.#keepFork({
        tile_id,
        witness: name,
        note: latest.note,
        witness_note: cosignedNote,
        consistency_proof: consistency,
        witness_size: tree_size,
        message: `cosigned a checkpoint of size ${tree_size} with root ${root_hash}, signed by the log's key, while the log's tree of that size has root ${logRoot}: the log's key signed two trees of one size`,
        detected_unix_ms: Date.now(),
      });
    }
    return true;
  }

  /** The tile's latest signed checkpoint as the log holds it (every anchor's proof carries it), or undefined for a tile without anchors. */
  async #latestOf(tileId: number): Promise<SignedCheckpoint | undefined> {
    const [anchor] = (await this.#log.page(tileId, 0, 1)).anchors;
    return anchor === undefined ? undefined : (await this.#log.proof(anchor.receipt_hash))?.checkpoint;
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
    (fork.witness_note === null || typeof fork.witness_note === "string") &&
    (fork.consistency_proof === null || isConsistencyStep(fork.consistency_proof)) &&
    isCount(fork.witness_size) &&
    typeof fork.message === "string" &&
    isCount(fork.detected_unix_ms)
  );
}

function isConsistencyStep(value: unknown): value is Omit<ConsistencyProof, "tile_id"> {
  const step = value as Partial<Record<keyof ConsistencyProof, unknown>> | null;
  return (
    typeof step === "object" &&
    step !== null &&
    isCount(step.first) &&
    isCount(step.second) &&
    isHash(step.first_root) &&
    isHash(step.second_root) &&
    Array.isArray(step.proof) &&
    step.proof.every(isHash)
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

/** The `quorum`-th smallest cosignature timestamp: by then at least `quorum` witnesses had seen the checkpoint. Undefined with fewer than `quorum`: no time is witnessed then. */
function witnessedTime(cosigned: CosignedCheckpoint, quorum: number): number | undefined {
  const timestamps = cosigned.cosignatures.map((cosignature) => cosignature.timestamp).sort((a, b) => a - b);
  return timestamps.length < quorum ? undefined : timestamps[quorum - 1];
}

/** `INVALID_TREE_SIZE` from the log: it holds no tree of the size asked (a `TemporalRangeError`, not a `TemporalError`). */
function isBeyondTree(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "INVALID_TREE_SIZE";
}

/** A checkpoint's identity within the log: tile, size and root. */
function checkpointKey({ tile_id, tree_size, root_hash }: Pick<SignedCheckpoint, "tile_id" | "tree_size" | "root_hash">): string {
  return `${tile_id}/${tree_size}/${root_hash}`;
}

/** The valid cosignatures held of the tile's latest checkpoint, by witness name. */
function heldOfLatest(tile: TileWitnessing): ReadonlyMap<string, unknown> | undefined {
  const { tree_size, root_hash } = tile.latest;
  return tile.collections.find((collection) => collection.checkpoint.tree_size === tree_size && collection.checkpoint.root_hash === root_hash)?.lines;
}
