/**
 * Offline verification of a `FINAL` anchor proof (docs/witness.md, "Checking
 * a FINAL proof offline"): everything a third party needs is in the proof and
 * the keys it already trusts, the log's and the witnesses', so nothing here
 * touches the network. Pure (WebCrypto), platform-free.
 */

import { cosignatureKey, cosignatureKeyVerifier, findCosignature } from "./cosignature.js";
import { bytesToHex, hexToBytes, isHash } from "./encoding.js";
import { TemporalError, describeValue } from "./errors.js";
import { verifyCheckpointByAnyKey, verifyInclusion, type LogKeySetInput } from "./anchor-proof.js";
import { verifyConsistency } from "./merkle.js";
import type { NoteVerifier, NoteVerifierKey } from "./note-key.js";
import { isSignedCheckpoint } from "./signed-checkpoint.js";
import { parseNote, type Note } from "./signed-note.js";
import type { AnchorProof, SignedCheckpoint } from "./types.js";
import type { CosignedCheckpoint } from "./witnessing-types.js";

/** Whom the verifier trusts. */
export interface FinalityKeys {
  /**
   * The log's keys: one key, a list (after a rotation, the current and the retired ones the verifier still trusts),
   * or the `GET keys` reply. A checkpoint counts as the log's when one of them signed it under its origin.
   */
  readonly log: LogKeySetInput;
  /** The cosignature/v1 vkeys (`<name>+<key ID>+<key>`) of the witnesses the verifier trusts, or their `parseWitnesses` set; each public key counts once. */
  readonly witnesses: readonly string[] | WitnessSet;
}

/**
 * Trusted witnesses, each cosignature/v1 vkey parsed once (`parseWitnesses`): `verifyFinality`, `verifyZtt` and
 * `witnessMajority` take it in place of the vkeys, so a caller that counts the witnesses first (to check a quorum
 * against them) does not parse them again.
 */
export interface WitnessSet {
  /** How many distinct witnesses the vkeys name: a key listed twice, or under two names, is one. */
  readonly size: number;
}

/** The checks, in the order they are made. */
export type FinalityCheckName = "inclusion" | "log_signature" | "witnessed" | "cosigned_log_signature" | "consistency" | "cosignatures";

export interface FinalityCheck {
  readonly name: FinalityCheckName;
  readonly ok: boolean;
  /** What was checked, or what failed and why. */
  readonly detail: string;
}

export interface FinalityVerification {
  /** True when every check passed: the receipt is in a checkpoint the log signed and at least `quorum` trusted witnesses cosigned. */
  readonly valid: boolean;
  readonly checks: readonly FinalityCheck[];
  /** The trusted witnesses whose cosignature of the checkpoint verifies, by key name. */
  readonly cosigned_by: readonly string[];
  /** The quorum checked: the caller's, or when it gave none a majority of the distinct trusted witnesses. */
  readonly quorum: number;
  /**
   * The `quorum`-th smallest timestamp among those valid cosignatures (POSIX seconds), computed here rather than read
   * from the proof; null when fewer than `quorum` verify.
   */
  readonly witnessed_unix_s: number | null;
}

/**
 * Checks a `FINAL` anchor proof against the keys the caller trusts: the receipt's inclusion in the proof's tree,
 * the log's signature on that checkpoint, the log's signature on the cosigned checkpoint (same tile, covering the
 * leaf), the consistency step between the two trees, and at least `quorum` valid cosignatures by distinct trusted
 * witnesses; without `quorum`, a majority of the distinct trusted witnesses (`witnessMajority`), counted from the vkeys
 * as they are parsed for the check (or given already parsed, a `parseWitnesses` set), so a caller never parses them twice. Never throws for a bad proof (a failed check
 * says why); throws `INVALID_ARGUMENT` for a quorum that is not a positive integer and
 * `INVALID_NOTE_KEY`/`INVALID_COSIGNATURE` for a witness vkey that is not a cosignature/v1 key, since those are the
 * caller's configuration.
 */
export async function verifyFinality(proof: AnchorProof, keys: FinalityKeys, quorum?: number): Promise<FinalityVerification> {
  if (quorum !== undefined && (!Number.isSafeInteger(quorum) || quorum < 1)) {
    throw new TemporalError("INVALID_ARGUMENT", `verifyFinality: quorum must be a positive integer, got ${describeValue(quorum)}`);
  }
  const witnesses = await witnessVerifiers(keys.witnesses);
  return verifyFinalityBy(proof, keys.log, witnesses, quorumFor(quorum, witnesses.length));
}

/**
 * `verifyFinality` with the witnesses already parsed (`witnessVerifiers`) and `quorum` already checked: `verifyZtt`
 * parses its witnesses once, for its quorum and for this.
 */
export async function verifyFinalityBy(proof: AnchorProof, log: LogKeySetInput, witnesses: readonly NoteVerifier[], quorum: number): Promise<FinalityVerification> {
  const checks: FinalityCheck[] = [];
  const check = (name: FinalityCheckName, ok: boolean, detail: string) => (checks.push({ name, ok, detail }), ok);

  check("inclusion", verifyInclusion(proof), "the receipt hash is the leaf at leaf_index of the tree of tree_size leaves with root_hash, the proof's checkpoint");
  const checkpoint = (proof as Partial<AnchorProof> | null)?.checkpoint;
  const ownSigned = checkpoint !== undefined && (await verifyCheckpointByAnyKey(checkpoint, log));
  check("log_signature", ownSigned, ownSigned ? "the proof's checkpoint is signed by a log key" : "no given log key signed the proof's checkpoint under its origin");

  const cosigned = witnessedCheckpointOf(proof);
  if (typeof cosigned === "string") {
    check("witnessed", false, cosigned);
    return { valid: false, checks, cosigned_by: [], quorum, witnessed_unix_s: null };
  }
  check("witnessed", true, `the proof carries a cosigned checkpoint of tile ${cosigned.tile_id} of size ${cosigned.tree_size}, which covers leaf ${proof.leaf_index}`);
  const cosignedSigned = await verifyCheckpointByAnyKey(cosigned, log);
  check("cosigned_log_signature", cosignedSigned, cosignedSigned ? "the cosigned checkpoint is signed by a log key" : "no given log key signed the cosigned checkpoint under its origin");
  check("consistency", consistent(proof, cosigned), `the tree of ${proof.tree_size} leaves and the cosigned tree of ${cosigned.tree_size} are one history (RFC 9162 consistency)`);

  const valid = await validCosignatures(parseNote(cosigned.note), witnesses);
  const enough = valid.length >= quorum;
  const names = valid.map(({ name }) => name);
  check(
    "cosignatures",
    enough,
    `${valid.length} of the ${witnesses.length} trusted witnesses cosigned the checkpoint${names.length > 0 ? ` (${names.join(", ")})` : ""}; the quorum is ${quorum}`,
  );
  const timestamps = valid.map(({ timestamp }) => timestamp).sort((a, b) => a - b);
  return {
    valid: checks.every(({ ok }) => ok),
    checks,
    cosigned_by: names,
    quorum,
    witnessed_unix_s: enough ? (timestamps[quorum - 1] as number) : null,
  };
}

/** The quorum a verifier asks for when given none: a majority of the distinct witnesses. Throws as `verifyFinality` does for its `keys.witnesses`. */
export function witnessMajority(witnesses: readonly string[] | WitnessSet): number {
  const distinct = parsed.get(witnesses as WitnessSet)?.length ?? witnessKeys(witnesses as readonly string[], "witnessMajority: witnesses", VKEYS_OR_SET).size;
  return quorumFor(undefined, distinct);
}

/**
 * The quorum a verifier checks: the one asked for, or when none a majority of the `distinct` trusted witnesses
 * (`witnessVerifiers(...).length`). `verifyFinality` and `verifyZtt` both default through here.
 */
export function quorumFor(asked: number | undefined, distinct: number): number {
  return asked ?? Math.floor(distinct / 2) + 1;
}

function publicKeyHex(key: NoteVerifierKey): string {
  return bytesToHex(key.publicKey);
}

/** Each `WitnessSet`'s verifiers, kept here so that the set itself shows only its size and cannot be made but by `parseWitnesses`. */
const parsed = new WeakMap<WitnessSet, readonly NoteVerifier[]>();

/**
 * The witnesses a verifier trusts, each vkey parsed once, as a `WitnessSet` for `verifyFinality`, `verifyZtt` and
 * `witnessMajority`. Throws as `verifyFinality` does for its `keys.witnesses`.
 */
export async function parseWitnesses(vkeys: readonly string[]): Promise<WitnessSet> {
  const verifiers = await trustedWitnesses(vkeys, "parseWitnesses: vkeys", VKEYS);
  const set: WitnessSet = Object.freeze({ size: verifiers.length });
  parsed.set(set, verifiers);
  return set;
}

/** One verifier per distinct trusted witness: parsed here from vkeys, or a `parseWitnesses` set's as they are. */
export function witnessVerifiers(witnesses: readonly string[] | WitnessSet, named = "verifyFinality: keys.witnesses"): Promise<readonly NoteVerifier[]> {
  const verifiers = parsed.get(witnesses as WitnessSet);
  return verifiers === undefined ? trustedWitnesses(witnesses as readonly string[], named, VKEYS_OR_SET) : Promise.resolve(verifiers);
}

const VKEYS = "an array of cosignature/v1 vkeys";
const VKEYS_OR_SET = `${VKEYS} or a parseWitnesses set`;

/** The witnesses a verifier trusts, each vkey parsed once (`witnessKeys`): one verifier per distinct public key. */
async function trustedWitnesses(vkeys: readonly string[], named: string, accepted: string): Promise<NoteVerifier[]> {
  return Promise.all([...witnessKeys(vkeys, named, accepted).values()].map(cosignatureKeyVerifier));
}

/**
 * Each distinct witness's cosignature/v1 key, by its public key (not by text after a "+": base64 itself may hold "+"):
 * a key listed twice, or under two names, must not count twice, so it keeps its first place and its last name. Throws
 * `INVALID_ARGUMENT` for what is not a list of strings (`named` says whose, `accepted` what it takes), and
 * `INVALID_NOTE_KEY` or `INVALID_COSIGNATURE` for the first vkey that is not a cosignature/v1 key.
 */
function witnessKeys(vkeys: readonly string[], named: string, accepted: string): Map<string, NoteVerifierKey> {
  if (!Array.isArray(vkeys)) throw new TemporalError("INVALID_ARGUMENT", `${named} must be ${accepted}, got ${describeValue(vkeys)}`);
  const byKey = new Map<string, NoteVerifierKey>();
  for (const vkey of vkeys as readonly unknown[]) {
    if (typeof vkey !== "string") throw new TemporalError("INVALID_ARGUMENT", `${named}: each is a string <name>+<key ID>+<key>, got ${describeValue(vkey)}`);
    const key = cosignatureKey(vkey);
    byKey.set(publicKeyHex(key), key);
  }
  return byKey;
}

/** The proof's cosigned checkpoint as the log's signed checkpoint (its `cosignatures` summary left out), or why there is none usable. */
function witnessedCheckpointOf(proof: AnchorProof): SignedCheckpoint | string {
  if (typeof proof !== "object" || proof === null) return "the proof is not an object";
  if (proof.finality !== "FINAL") return `the proof's finality is ${describeValue(proof.finality)}, not FINAL`;
  const cosigned = proof.witnessed?.checkpoint as Partial<CosignedCheckpoint> | undefined;
  if (typeof cosigned !== "object" || cosigned === null) return "the proof carries no witnessed.checkpoint";
  const { cosignatures: _summary, ...checkpoint } = cosigned;
  if (!isSignedCheckpoint(checkpoint)) return "witnessed.checkpoint's tile_id, tree_size, root_hash, ... are not its note's";
  if (checkpoint.tile_id !== proof.tile_id || checkpoint.origin !== proof.checkpoint?.origin)
    return `witnessed.checkpoint is of tile ${checkpoint.tile_id}, not the proof's tile ${proof.tile_id}`;
  if (!(checkpoint.tree_size > proof.leaf_index)) return `witnessed.checkpoint has ${checkpoint.tree_size} leaves and does not cover leaf ${proof.leaf_index}`;
  return checkpoint;
}

/** The consistency step of the proof links its tree and the cosigned one, smaller first. */
function consistent(proof: AnchorProof, cosigned: SignedCheckpoint): boolean {
  const path: unknown = proof.witnessed?.consistency_proof;
  if (!Array.isArray(path) || !path.every(isHash) || !isHash(proof.root_hash)) return false;
  const [first, second] = proof.tree_size <= cosigned.tree_size ? [proof, cosigned] : [cosigned, proof];
  return verifyConsistency(first.tree_size, second.tree_size, hexToBytes(first.root_hash), hexToBytes(second.root_hash), path.map(hexToBytes));
}

/** Each trusted witness whose cosignature of the note's text verifies, with its timestamp. */
async function validCosignatures(note: Note, witnesses: readonly NoteVerifier[]): Promise<{ name: string; timestamp: number }[]> {
  const found = await Promise.all(witnesses.map((witness) => findCosignature(note.text, note.signatures, witness)));
  return found.flatMap((cosignature, i) => (cosignature === undefined ? [] : [{ name: (witnesses[i] as NoteVerifier).name, timestamp: cosignature.timestamp }]));
}
