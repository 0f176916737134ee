/**
 * The add-checkpoint call of C2SP tlog-witness v1.0.0, platform-free: the
 * request body's parser (the SDK's `formatAddCheckpointRequest` writes it)
 * and the witness's decision, every check in the
 * order the spec lists them, with its status code. Where the state lives is
 * the `WitnessStateStore`'s business; it makes check-and-update atomic.
 */

import {
  MAX_PROOF_LINES,
  TemporalError,
  base64ToBytes,
  bytesToBase64,
  formatSignatureLine,
  hexToBytes,
  openNote,
  parseCheckpoint,
  parseNote,
  sha256Hex,
  verifyConsistency,
  type AddCheckpointRequest,
  type Checkpoint,
  type Cosigner,
} from "@temporal/agent-sdk";
import type { LogKeys } from "./known-logs.js";

/** RFC 6962 section 2.1: the root hash of the empty tree is the hash of the empty string. */
export const EMPTY_TREE_ROOT = sha256Hex(new Uint8Array(0));

const OLD_SIZE_LINE = /^old (0|[1-9][0-9]*)$/;

/** The latest checkpoint a witness cosigned for one origin. */
export interface LatestCheckpoint {
  readonly size: number;
  /** 64 lowercase hex digits. */
  readonly rootHash: string;
  /** The signed note as the log submitted it. */
  readonly note: string;
}

/** A validly signed checkpoint the witness refused because it contradicts what it cosigned: possible proof of log misbehaviour. */
export interface Evidence {
  readonly origin: string;
  /** `fork`: same size, another root hash; `inconsistent`: a larger tree whose consistency proof from the cosigned one fails. */
  readonly kind: "fork" | "inconsistent";
  readonly cosigned: LatestCheckpoint;
  readonly refusedNote: string;
  /** The consistency proof as sent, base64 hashes. */
  readonly proof: readonly string[];
  readonly receivedUnixMs: number;
}

/**
 * Keeps the latest cosigned checkpoint per origin. `update` runs `decide`
 * with the origin's latest checkpoint, never two at a time for one origin,
 * and persists `next` durably before it resolves, so a check and its
 * update are one atomic step and a restart never forgets a cosignature.
 */
export interface WitnessStateStore {
  update<T>(origin: string, decide: (latest: LatestCheckpoint | undefined) => Promise<{ readonly result: T; readonly next?: LatestCheckpoint }>): Promise<T>;
  recordEvidence(evidence: Evidence): Promise<void>;
}

/** What the witness answers; the server writes it as HTTP. */
export type AddCheckpointOutcome =
  | { readonly status: 200; readonly cosignatures: string }
  | { readonly status: 409; readonly size: number; readonly message: string }
  | { readonly status: 400 | 403 | 404 | 422; readonly message: string };

export interface WitnessOptions {
  readonly cosigner: Cosigner;
  /** Each known log's origin and the verifiers of its keys. */
  readonly logs: LogKeys;
  readonly store: WitnessStateStore;
  /** Unix ms; cosignature timestamps are its whole seconds. */
  readonly now?: () => number;
}

/** Parses a request body; the reason it is malformed (a 400) otherwise. The note is split off, not yet parsed. */
export function parseAddCheckpointRequest(body: string): AddCheckpointRequest | { readonly malformed: string } {
  // No header line is empty and a note starts with its origin, so the first blank line ends the header.
  const end = body.indexOf("\n\n");
  if (end < 0) return { malformed: "has no blank line between the old size and proof lines and the checkpoint" };
  const [oldLine, ...proofLines] = body.slice(0, end).split("\n");
  const old = OLD_SIZE_LINE.exec(oldLine as string);
  if (old === null) return { malformed: `starts with ${JSON.stringify(oldLine?.slice(0, 40))}, not "old <size>" (decimal, no leading zeros)` };
  const oldSize = Number(old[1]);
  if (!Number.isSafeInteger(oldSize)) return { malformed: `has old size ${old[1]}, beyond 2^53 - 1, the largest this witness handles` };
  if (proofLines.length > MAX_PROOF_LINES) return { malformed: `has ${proofLines.length} consistency proof lines, more than ${MAX_PROOF_LINES}` };
  const proof: Uint8Array[] = [];
  for (const [i, line] of proofLines.entries()) {
    const hash = base64ToBytes(line);
    if (hash === undefined || hash.length !== 32) return { malformed: `has consistency proof line ${i + 1} that is not canonical base64 of a 32-byte hash` };
    proof.push(hash);
  }
  return { oldSize, proof, note: body.slice(end + 2) };
}

/** A tlog-witness: decides add-checkpoint requests against the state it keeps. */
export class Witness {
  readonly #options: WitnessOptions;

  constructor(options: WitnessOptions) {
    this.#options = options;
  }

  /** Answers one add-checkpoint request body. Throws only for failures of the witness itself (its state store or key). */
  async addCheckpoint(body: string): Promise<AddCheckpointOutcome> {
    const request = parseAddCheckpointRequest(body);
    if ("malformed" in request) return { status: 400, message: `the request body ${request.malformed}` };
    let checkpoint: Checkpoint;
    let text: string;
    try {
      text = parseNote(request.note).text;
      checkpoint = parseCheckpoint(text);
    } catch (error) {
      return { status: 400, message: `the checkpoint is malformed: ${messageOf(error)}` };
    }
    const verifiers = await this.#options.logs.get(checkpoint.origin);
    if (verifiers === undefined) return { status: 404, message: `this witness does not know the log ${JSON.stringify(checkpoint.origin)}` };
    try {
      await openNote(request.note, verifiers);
    } catch (error) {
      if (error instanceof TemporalError && error.code === "NOTE_NOT_VERIFIED") return { status: 403, message: error.message };
      throw error;
    }
    if (request.oldSize > checkpoint.tree_size) return { status: 400, message: `old size ${request.oldSize} is larger than the checkpoint's size ${checkpoint.tree_size}` };
    return this.#options.store.update(checkpoint.origin, (latest) => this.#decide(request, checkpoint, text, latest));
  }

  async #decide(request: AddCheckpointRequest, checkpoint: Checkpoint, text: string, latest: LatestCheckpoint | undefined) {
    const { oldSize, proof, note } = request;
    const size = latest?.size ?? 0;
    const refuse = (outcome: AddCheckpointOutcome) => ({ result: outcome });
    const conflict = (why: string) => refuse({ status: 409, size, message: why });
    if (checkpoint.tree_size === 0 && checkpoint.root_hash !== EMPTY_TREE_ROOT) return refuse({ status: 422, message: "a checkpoint of size 0 must have the empty tree's root hash" });
    if (oldSize !== size) return conflict(`old size ${oldSize} is not ${size}, the size of the latest checkpoint this witness cosigned for ${checkpoint.origin}`);
    if (oldSize === 0) {
      if (proof.length > 0) return refuse({ status: 422, message: "old size 0 needs an empty consistency proof" });
    } else if (latest !== undefined && oldSize === checkpoint.tree_size && latest.rootHash !== checkpoint.root_hash) {
      await this.#recordEvidence("fork", checkpoint.origin, latest, request);
      return conflict(`this witness cosigned a different root hash for size ${size} of ${checkpoint.origin}; the two checkpoints are kept as evidence`);
    } else if (latest !== undefined && !verifyConsistency(oldSize, checkpoint.tree_size, hexToBytes(latest.rootHash), hexToBytes(checkpoint.root_hash), proof)) {
      // Only a larger tree can contradict the cosigned one; a non-empty proof between equal trees is merely malformed.
      if (oldSize < checkpoint.tree_size) await this.#recordEvidence("inconsistent", checkpoint.origin, latest, request);
      return refuse({ status: 422, message: `the consistency proof from size ${oldSize} to ${checkpoint.tree_size} does not verify against the cosigned root hash` });
    }
    const timestamp = Math.floor(this.#now() / 1000);
    const cosignature = await this.#options.cosigner.cosign(text, timestamp);
    const outcome: AddCheckpointOutcome = { status: 200, cosignatures: formatSignatureLine(cosignature) };
    return { result: outcome, next: { size: checkpoint.tree_size, rootHash: checkpoint.root_hash, note } };
  }

  #recordEvidence(kind: Evidence["kind"], origin: string, cosigned: LatestCheckpoint, request: AddCheckpointRequest): Promise<void> {
    return this.#options.store.recordEvidence({ origin, kind, cosigned, refusedNote: request.note, proof: request.proof.map(bytesToBase64), receivedUnixMs: this.#now() });
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
