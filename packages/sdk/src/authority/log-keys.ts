import { TemporalError } from "../core/errors.js";
import { bytesToHex } from "../core/encoding.js";
import { ED25519_SIGNATURE_TYPE, noteKeyId, noteKeyIdHex } from "../core/note-key.js";
import type { Note } from "../core/signed-note.js";
import type { SignedCheckpoint } from "../core/types.js";
import { rawPublicKey, type VerifyingKey } from "../core/verifying-key.js";

/**
 * Origins whose keys' note key IDs are kept: far more than a log's tiles verified in one run; past it the memo starts
 * again, so origins read from data never grow it without bound.
 */
const MAX_REMEMBERED_ORIGINS = 4096;

/** A checkpoint's signature line by one of a log's keys, to verify. */
export interface HeadSignature {
  readonly key: VerifyingKey;
  readonly message: string;
  readonly signatureHex: string;
}

/**
 * The keys a clockchain may be signed by: the key that signs from now on and
 * the retired keys the operator still trusts for what they signed
 * (`previous_keys`). A log rotated from key A to key B holds checkpoints
 * signed by A, then checkpoints signed by B, and opens with B and A. Which key
 * signed a checkpoint is read from its note's signature line, whose C2SP key
 * ID names the key (under the checkpoint's origin), so no key is tried in vain.
 * A key ID is 4 bytes: two keys may share one, and a note may carry a line
 * by a foreign key with one of ours, so every key and line that match is a
 * candidate (`signaturesOf`) and the one that verifies counts
 * (`verifiedSignatureOf`).
 */
export class LogKeys {
  readonly current: VerifyingKey;
  /** Retired keys, the current key and repeats left out. */
  readonly previous: readonly VerifyingKey[];
  /** The current key first, then the retired ones. */
  readonly all: readonly VerifyingKey[];
  readonly #raw: ReadonlyMap<VerifyingKey, Uint8Array>;
  /**
   * Per origin, each key's note key ID. The ID hashes the origin (the tile's, so not known at construction) with the
   * key, and every head of a tile is looked up and verified under the same origin: hashed once per key and origin.
   */
  readonly #noteKeyIds = new Map<string, readonly { readonly key: VerifyingKey; readonly keyId: number }[]>();

  constructor(current: VerifyingKey, previous: readonly VerifyingKey[] = []) {
    this.current = current;
    const retired = new Map<string, VerifyingKey>();
    for (const key of previous) if (key.key_id !== current.key_id) retired.set(key.key_id, key);
    this.previous = [...retired.values()];
    this.all = [current, ...this.previous];
    this.#raw = new Map(this.all.map((key) => [key, rawPublicKey(key.jwk)]));
  }

  /** The key with this key id (`Receipt.key_id`, a `GET keys` entry), if it is one of these. */
  byId(keyId: unknown): VerifyingKey | undefined {
    return this.all.find((key) => key.key_id === keyId);
  }

  /** True when both hold the same keys in the same roles. */
  equals(other: LogKeys): boolean {
    return describeKeys(this) === describeKeys(other);
  }

  /**
   * Every signature line under `origin` whose key ID is one of these keys', paired with that key: the current key's
   * first, then the retired ones', each in the note's order (witness cosignatures, under other names, are ignored).
   * Almost always one; more when key IDs collide.
   */
  signaturesOf(note: Note, origin: string): HeadSignature[] {
    const lines = note.signatures.filter((line) => line.name === origin);
    if (lines.length === 0) return [];
    const candidates: HeadSignature[] = [];
    for (const { key, keyId } of this.#noteKeyIdsUnder(origin)) {
      for (const line of lines) if (line.keyId === keyId) candidates.push({ key, message: note.text, signatureHex: bytesToHex(line.signature) });
    }
    return candidates;
  }

  /** Each key (the current one first) with its note key ID under `origin`, hashed on the first use of that origin. */
  #noteKeyIdsUnder(origin: string): readonly { readonly key: VerifyingKey; readonly keyId: number }[] {
    const known = this.#noteKeyIds.get(origin);
    if (known !== undefined) return known;
    const ids = [...this.#raw].map(([key, raw]) => ({ key, keyId: noteKeyId(origin, ED25519_SIGNATURE_TYPE, raw) }));
    if (this.#noteKeyIds.size >= MAX_REMEMBERED_ORIGINS) this.#noteKeyIds.clear();
    this.#noteKeyIds.set(origin, ids);
    return ids;
  }

  /**
   * Which key signed, for checks that need it before the signature is verified (a record's key order, its
   * signatures then checked in a batch): the first of `signaturesOf`, or the first by the key with id `likelyKeyId`
   * when there is one (the key that signed the head before: a collision then favours continuity). Undefined when
   * none of these keys' IDs is on the note. With several candidates it may not be the one that verifies: verify
   * with `verifiedSignatureOf`, giving it this key when the choice must hold.
   */
  signatureOf(note: Note, origin: string, likelyKeyId?: string): HeadSignature | undefined {
    const candidates = this.signaturesOf(note, origin);
    return candidates.find((candidate) => candidate.key.key_id === likelyKeyId) ?? candidates[0];
  }

  /** The first of `signaturesOf` (only `key`'s, when given) whose signature verifies, tried in turn; undefined when none does. */
  async verifiedSignatureOf(note: Note, origin: string, key?: VerifyingKey): Promise<HeadSignature | undefined> {
    for (const candidate of this.signaturesOf(note, origin)) {
      if (key !== undefined && candidate.key !== key) continue;
      if (await candidate.key.verify(candidate.signatureHex, candidate.message).catch(() => false)) return candidate;
    }
    return undefined;
  }

  /**
   * `LOG_KEY_UNKNOWN` for a checkpoint the log holds that none of these keys signed: a node started with another
   * key than the one its clockchain is signed by, or a rotation that does not list the retired key.
   */
  unknownKeyError(head: SignedCheckpoint, note: Note): TemporalError {
    const named = note.signatures.filter((line) => line.name === head.origin).map((line) => noteKeyIdHex(line.keyId));
    const by = named.length === 0 ? `carries no signature line under its origin ${head.origin}` : `is signed under ${head.origin} by note key ID ${named.join(", ")}`;
    return new TemporalError(
      "LOG_KEY_UNKNOWN",
      `the clockchain's checkpoint ${head.sequence} (tile ${head.tile_id}) ${by}, which is none of this node's keys (${describeKeys(this)}). ` +
        `Start the node with the key the clockchain is signed by; or, to rotate to key ${this.current.key_id}, list every key that signed the clockchain as a previous key ` +
        `(temporal-service: "previous_keys" in the config, each a key file or the JWK that GET keys published for it)`,
    );
  }

  /**
   * `LOG_KEY_RETIRED` for a log that moved past the current key: after it signed, `laterKeyId` (one of the previous
   * keys) signed. A rotation is one way; restarting on the retired key would let a leaked key extend the log.
   */
  retiredKeyError(laterKeyId: string | undefined): TemporalError {
    return new TemporalError(
      "LOG_KEY_RETIRED",
      `the clockchain has moved past this node's signing key ${this.current.key_id}: a later key${laterKeyId === undefined ? "" : ` (${laterKeyId})`} signed after it, and a rotation is one way. ` +
        `Start the node with the key that signs the clockchain now, listing ${this.current.key_id} among the previous keys (temporal-service: "previous_keys" in the config)`,
    );
  }
}

function describeKeys(keys: LogKeys): string {
  const retired = keys.previous.map((key) => key.key_id).join(", ");
  return `signing key ${keys.current.key_id}${retired === "" ? ", no previous keys" : `, previous keys ${retired}`}`;
}
