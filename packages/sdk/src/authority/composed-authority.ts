import { bytesToHex } from "../core/encoding.js";
import { CHALLENGE_VERSION, verifyChallenge } from "../core/challenge.js";
import { TemporalError, TemporalRangeError, describeIssues, describeValue } from "../core/errors.js";
import { UNIX_MS_RULE } from "../core/fields.js";
import { KERNEL_VERSION, contextAt, toUnixMs } from "../core/phase.js";
import { RECEIPT_VERSION, receiptHash, receiptIssues, verifyReceipt } from "../core/receipt.js";
import type { AnchorPage, Challenge, ClockchainStatus, ConsistencyProof, TsaeIssueRequest, VerifyResult } from "../core/service-types.js";
import { signingPayload } from "../core/signed-record.js";
import { assertTsaeRequest } from "../core/tsae.js";
import type {
  AnchorOptions,
  AnchorProof,
  AnchorSummary,
  Authority,
  AuthorityNowOptions,
  PhaseContext,
  PublicKeyJwk,
  Receipt,
  SignedCheckpoint,
  TsaeRequest,
  Window,
  ZoneInput,
} from "../core/types.js";
import { assertNoteKeyName } from "../core/note-key.js";
import { originSignature } from "../core/signed-checkpoint.js";
import { parseNote } from "../core/signed-note.js";
import { authorityVerifierKey, defaultAuthorityName, parseTileOrigin } from "../core/tile-origin.js";
import { rawPublicKey, type VerifyingKey } from "../core/verifying-key.js";
import { AnchorQueue } from "./anchor-queue.js";
import { IssuedReceipts } from "./issued-receipts.js";
import { LogKeys } from "./log-keys.js";
import { onceUnlessRejected } from "./once-unless-rejected.js";
import {
  DEFAULT_CHALLENGE_TTL_MS,
  DEFAULT_PAGE_LIMIT,
  assertChallengeShape,
  assertChallengeTtl,
  assertPage,
  assertReceiptHash,
  assertTileId,
  plainCopy,
  splitChallenge,
} from "./arguments.js";
import type { ChallengeStore, HeadSigning, LogEntry, LogRecovery, LogStore, Signer, SigningKey } from "./seams.js";
import { verifyAnchored } from "./verify-anchored.js";
import { createZttSigner, type ZttSigner } from "../ztt/signer.js";
import type { ZttCertificate } from "../ztt/certificate.js";
import { certifyEphemeralKey, type ZttCertifyRequest } from "../ztt/certify.js";
import { Witnessing } from "./witnessing.js";
import { finalityWait, type WitnessingOptions } from "./witnessing-options.js";

export interface AuthorityParts {
  readonly signer: Signer;
  readonly log: LogStore;
  readonly challenges: ChallengeStore;
  /** Time source for `now()`, `issued_unix_ms` and signed heads; defaults to `Date.now`. */
  readonly clock?: () => number | Date;
  /** How errors name this authority, e.g. "the local authority at /srv/home"; default "the authority". */
  readonly name?: string;
  /**
   * The authority name of its checkpoints' origins (`<authority name>/tile/<tile id>`),
   * a schema-less URL it controls such as `clock.example.com`; default
   * `defaultAuthorityName(key)`, `temporal-authority/<key id>` (docs/checkpoints.md).
   */
  readonly authorityName?: string;
  /** Witnesses and a quorum: checkpoints are submitted to them after appends, and anchors become `FINAL` (docs/witness.md). */
  readonly witnessing?: WitnessingOptions;
  /**
   * Retired keys this authority rotated from: the log's earlier checkpoints
   * may be signed by them (it opens with `LogKeys`), `publicKeys()` and
   * `noteVerifierKeys()` keep publishing them, and `verifyAnchored` checks
   * what they signed. New receipts, challenges and checkpoints are signed by
   * the signer's key only, and `anchor` takes only receipts it signed: a
   * retired key may have been retired because it leaked.
   */
  readonly previousKeys?: readonly VerifyingKey[];
}

export interface ChallengeOptions {
  /** How long the challenge stays usable, ms: an integer in 1 000..3 600 000; default 60 000. */
  readonly ttlMs?: number;
}

export interface IssueReceiptOptions {
  /** A challenge from this authority's `issueChallenge`, used up by this receipt; it may instead ride in the request's `challenge` field. */
  readonly challenge?: Challenge;
}

export interface AnchorPageOptions {
  /** Leaf index of the first anchor, an integer >= 0; default 0. */
  readonly offset?: number;
  /** Anchors per page, an integer in 1..1000; default 100. */
  readonly limit?: number;
}

export interface AuthorityStatus {
  readonly key_id: string;
  readonly records: number;
  /** Tiles with a signed head. */
  readonly tiles: number;
  readonly anchors: number;
  readonly last_checkpoint: SignedCheckpoint | undefined;
  readonly recovered: LogRecovery | undefined;
}

/**
 * An authority composed of a signer, a log store and a challenge store: it
 * validates, signs, checks challenges and batches anchors; the parts keep
 * the key, the clockchain and the outstanding nonces. Creating one does no
 * work; the key is loaded and the log opened on first use (or `ready()`).
 * It owns its parts: `close` closes the log and challenge stores.
 */
export class ComposedAuthority implements Authority {
  readonly kind = "local";
  readonly #signer: Signer;
  readonly #log: LogStore;
  readonly #challenges: ChallengeStore;
  readonly #clock: () => number | Date;
  readonly #name: string;
  readonly #authorityName: string | undefined;
  readonly #previousKeys: readonly VerifyingKey[];
  #logKeys: LogKeys | undefined;
  #closed = false;
  /** Set when the log could not undo a failed append; every call then rejects with it. */
  #failure: TemporalError | undefined;
  #releasing: Promise<void> | undefined;
  /** The latest receipts issued here, by hash: `anchor` skips their Ed25519 verification, which costs more than signing. */
  readonly #issued = new IssuedReceipts();
  /** Anchor calls not yet settled, which `close` waits for. */
  readonly #anchoring = new Set<Promise<AnchorProof>>();
  readonly #queue = new AnchorQueue((entries, joining) => this.#commit(entries, joining));
  readonly #witnessing: Witnessing | undefined;

  constructor(parts: AuthorityParts) {
    this.#signer = parts.signer;
    this.#log = parts.log;
    this.#challenges = parts.challenges;
    this.#clock = parts.clock ?? Date.now;
    this.#name = parts.name ?? "the authority";
    if (parts.authorityName !== undefined) assertNoteKeyName(parts.authorityName);
    this.#authorityName = parts.authorityName;
    this.#witnessing = parts.witnessing === undefined ? undefined : new Witnessing(parts.witnessing, parts.log);
    this.#previousKeys = parts.previousKeys ?? [];
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** True once a failed write to the log could not be undone; the authority then refuses every call and has released its stores. */
  get failed(): boolean {
    return this.#failure !== undefined;
  }

  /**
   * Opens and checks the authority before work that must end in an anchored
   * receipt: the key loads (or is created), the log opens and verifies (for
   * files: the home is writable and the ledger valid), and the clock gives a
   * reading a signed record can carry. Rejects with the coded error of the
   * first problem; calling it again retries.
   */
  async ready(): Promise<void> {
    await this.#open();
    this.#signingTime();
  }

  async now(options: AuthorityNowOptions = {}): Promise<PhaseContext> {
    this.#assertUsable();
    return contextAt(this.#clock(), { zone: options.zone, source: "local" });
  }

  /**
   * Validates a copy of the request (a `TsaeRequestError` names every bad
   * field) and signs that copy. With a challenge (in `options` or the
   * request's `challenge` field) the challenge is checked and used up, and
   * the receipt carries its nonce as `challenge_nonce`.
   */
  async issueReceipt(request: TsaeRequest | TsaeIssueRequest, options: IssueReceiptOptions = {}): Promise<Receipt> {
    const given: unknown = typeof options === "object" && options !== null ? options.challenge : undefined;
    const { request: snapshot, challenge } = splitChallenge(plainCopy(request), given);
    assertTsaeRequest(snapshot);
    if (challenge !== undefined) assertChallengeShape(challenge);
    const { scope, day_index, phi_action_ticks, swt_zone, tile_id, action_hash_hex } = snapshot;
    const key = await this.#open();
    const issuedUnixMs = this.#signingTime();
    if (challenge !== undefined) await this.#useChallenge(challenge, key, issuedUnixMs);
    const unsigned = {
      scope,
      day_index,
      phi_action_ticks,
      swt_zone,
      tile_id,
      action_hash_hex,
      receipt_version: RECEIPT_VERSION,
      issued_unix_ms: issuedUnixMs,
      key_id: key.verifying.key_id,
      ...(challenge === undefined ? {} : { challenge_nonce: challenge.nonce }),
    } as const;
    const receipt: Receipt = Object.freeze({ ...unsigned, signature: await key.sign(signingPayload(unsigned)) });
    this.#issued.remember(receiptHash(receipt));
    return receipt;
  }

  /**
   * A single-use freshness anchor: a random 32-byte nonce, signed with the
   * authority key, valid for `ttlMs` by the authority's clock. Pass it to
   * `issueReceipt` to prove the receipt was made after the challenge. The
   * challenge store remembers the nonce until it is used or expires.
   */
  async issueChallenge(options: ChallengeOptions = {}): Promise<Challenge> {
    const ttlMs = options.ttlMs === undefined ? DEFAULT_CHALLENGE_TTL_MS : options.ttlMs;
    assertChallengeTtl(ttlMs);
    const key = await this.#open();
    const issuedUnixMs = this.#signingTime();
    const expiresUnixMs = issuedUnixMs + ttlMs;
    const problem = UNIX_MS_RULE(expiresUnixMs);
    if (problem !== undefined) throw new TemporalRangeError("INVALID_TIME", `a challenge issued at ${issuedUnixMs} cannot expire ${ttlMs} ms later: expires_unix_ms ${problem}`);
    const unsigned = {
      challenge_version: CHALLENGE_VERSION,
      nonce: randomNonce(),
      issued_unix_ms: issuedUnixMs,
      expires_unix_ms: expiresUnixMs,
      key_id: key.verifying.key_id,
    } as const;
    const challenge: Challenge = Object.freeze({ ...unsigned, signature: await key.sign(signingPayload(unsigned)) });
    await this.#challenges.add(challenge.nonce, expiresUnixMs, issuedUnixMs);
    return challenge;
  }

  /**
   * Checks a well-formed challenge against this authority at `now` (the
   * receipt's `issued_unix_ms`) and uses it up; the challenge store lets
   * exactly one of concurrent uses take it.
   */
  async #useChallenge(challenge: Challenge, key: SigningKey, now: number): Promise<void> {
    if (challenge.key_id !== key.verifying.key_id) {
      throw new TemporalError("CHALLENGE_INVALID", `challenge ${challenge.nonce} is signed by key ${challenge.key_id}, not this authority's key ${key.verifying.key_id}`);
    }
    if (!(await verifyChallenge(challenge, key.verifying))) {
      throw new TemporalError("CHALLENGE_INVALID", `the signature of challenge ${challenge.nonce} does not verify with this authority's key ${key.verifying.key_id}`);
    }
    if (now >= challenge.expires_unix_ms) {
      throw new TemporalError("CHALLENGE_EXPIRED", `challenge ${challenge.nonce} expired at ${challenge.expires_unix_ms} (authority clock ${now})`);
    }
    if (!(await this.#challenges.take(challenge.nonce, now))) {
      throw new TemporalError("CHALLENGE_UNKNOWN", `challenge ${challenge.nonce} is not outstanding: already used, or no longer (or never) held by this authority's challenge store`);
    }
  }

  /**
   * Anchors a receipt signed by this authority; resolves once it is durable
   * (with witnesses: `PROVISIONAL`), or with `options`, once it is `FINAL`
   * (`QUORUM_UNREACHABLE` for a quorum above the witnesses configured,
   * `FINALITY_TIMEOUT` carrying the provisional proof). Anchoring the same
   * receipt again returns its proof, also for a receipt a retired key signed
   * that the log already holds.
   */
  anchor(receipt: Receipt, options?: AnchorOptions): Promise<AnchorProof> {
    const anchoring = this.#anchorAndWitness(receipt, options);
    this.#anchoring.add(anchoring);
    const forget = () => this.#anchoring.delete(anchoring);
    anchoring.then(forget, forget);
    return anchoring;
  }

  assertQuorum(quorum: number): void {
    finalityWait({ quorum }, this.#witnessing?.witnessCount ?? 0, this.#witnessing?.quorum);
  }

  async #anchorAndWitness(receipt: Receipt, options: AnchorOptions | undefined): Promise<AnchorProof> {
    const witnessing = this.#witnessing;
    const wait = finalityWait(options, witnessing?.witnessCount ?? 0, witnessing?.quorum);
    const proof = await this.#anchor(receipt);
    if (witnessing === undefined) return proof;
    return wait === undefined ? witnessing.finish(proof) : witnessing.waitFinal(proof, wait.quorum, wait.timeoutMs);
  }

  async #anchor(receipt: Receipt): Promise<AnchorProof> {
    // A frozen copy, so the caller mutating its object cannot change what gets written after it was checked.
    const snapshot = Object.freeze(plainCopy(receipt));
    const issues = receiptIssues(snapshot);
    if (issues.length > 0) throw new TemporalError("RECEIPT_REJECTED", `cannot anchor a malformed receipt: ${describeIssues(issues)}`);
    const hash = receiptHash(snapshot);
    // Issued here and unchanged (the hash covers every field and the signature): signed by this key, no need to verify.
    if (!this.#issued.has(hash)) {
      const key = await this.#open();
      if (!(await verifyReceipt(snapshot, key.verifying))) {
        // A retried anchor of a receipt a retired key signed, anchored before the rotation: the log vouches for it already.
        const anchored = await this.#log.proof(hash);
        if (anchored !== undefined) return anchored;
        throw new TemporalError("RECEIPT_REJECTED", `receipt signature does not verify with this authority's key ${key.verifying.key_id} (receipt key_id ${describeValue(snapshot.key_id)})`);
      }
    }
    await this.#openLog();
    return this.#queue.push({ receipt: snapshot, hash });
  }

  /** Appends one batch; runs after `#anchor` opened the parts, and also while `close` waits for it. */
  async #commit(entries: readonly LogEntry[], joining: () => readonly LogEntry[]): Promise<AnchorProof[]> {
    this.#assertNotFailed();
    const key = await this.#openParts();
    const signing: HeadSigning = {
      key: key.verifying,
      authority_name: this.#authorityNameOf(key.verifying),
      issuedUnixMs: () => this.#signingTime(),
      sign: (message) => key.sign(message),
    };
    try {
      const proofs = await this.#log.append(entries, signing, joining);
      this.#witnessing?.observe(proofs.map((proof) => proof.checkpoint));
      return proofs;
    } catch (error) {
      const failure = this.#log.failure;
      if (failure !== undefined) {
        this.#queue.rejectWaiting(failure);
        await this.#giveUp(failure);
      }
      throw error;
    }
  }

  /**
   * The log could not undo a failed append, so its contents are unknown.
   * Refuses every later call, and releases the stores so that a new
   * authority (or a restarted process) can reopen them, which re-verifies.
   */
  #giveUp(failure: TemporalError): Promise<void> {
    this.#failure ??= failure;
    // Best effort: the storage has already failed, and the error that matters is the one the callers get.
    this.#releasing ??= Promise.allSettled([this.#log.close(), this.#challenges.close()]).then(() => undefined);
    return this.#releasing;
  }

  async getAnchorProof(receiptHashHex: string): Promise<AnchorProof | undefined> {
    assertReceiptHash(receiptHashHex);
    const proof = await (await this.#openLog()).proof(receiptHashHex);
    return proof === undefined || this.#witnessing === undefined ? proof : this.#witnessing.finish(proof);
  }

  async listAnchors(tileId: number): Promise<AnchorSummary[]> {
    assertTileId(tileId);
    return (await this.#openLog()).list(tileId);
  }

  /**
   * One page of a tile's anchors in leaf order, built without copying the
   * rest: `total` is the tile's size and `next_offset` is null on the last
   * page. A tile with no anchors is an empty page with total 0. Bad
   * arguments: `INVALID_TILE`, `INVALID_PAGE`.
   */
  async listAnchorPage(tileId: number, options: AnchorPageOptions = {}): Promise<AnchorPage> {
    assertTileId(tileId);
    const { offset = 0, limit = DEFAULT_PAGE_LIMIT } = options;
    assertPage(offset, limit);
    return (await this.#openLog()).page(tileId, offset, limit);
  }

  /**
   * RFC 9162 consistency proof that tile `tileId`'s tree of `first` leaves is
   * a prefix of its tree of `second` leaves, `1 <= first <= second <=` the
   * tile's size (equal sizes give an empty proof). `INVALID_TILE` for a tile
   * id that is not a non-negative integer; `INVALID_TREE_SIZE` for sizes out
   * of range, including any size of a tile with no anchors.
   */
  async getConsistencyProof(tileId: number, first: number, second: number): Promise<ConsistencyProof> {
    assertTileId(tileId);
    return (await this.#openLog()).consistencyProof(tileId, first, second);
  }

  /**
   * The clockchain's state in the service's wire shape, with no file paths.
   * `chain_valid`: every record the log holds verified when it was read
   * (checksums where the store has them, leaf order, roots, head links and
   * head signatures; the log does not open otherwise), every head added
   * since links to the one before it back to genesis, and no failed append
   * has left the log in an unknown state. Once the authority has stopped
   * after such a failure this call rejects, like every other.
   */
  async clockchainStatus(): Promise<ClockchainStatus> {
    const log = await this.#openLog();
    const { records, anchors, tiles, last_checkpoint, chain_valid, recovered } = await log.status();
    return {
      kernel_version: KERNEL_VERSION,
      chain_valid: chain_valid && log.failure === undefined,
      tiles,
      anchors,
      last_checkpoint: last_checkpoint ?? null,
      store: { kind: log.kind, records },
      recovered: recovered === undefined ? null : { offset: recovered.offset, bytes: recovered.bytes },
      ...(this.#witnessing === undefined ? {} : { witnessing: this.#witnessing.status() }),
    };
  }

  /**
   * Checks a receipt and its anchor proof against this authority; never
   * throws for malformed input (the parts it cannot check are false).
   * `signature`: the receipt is well formed and signed by this authority's
   * key. `inclusion`: its hash is the proof's leaf in the receipt's tile and
   * the path leads to the proof's root, which the proof's signed checkpoint
   * states for that tile and size. `chain`: that checkpoint's note is signed
   * by this key under its origin, covers the proof's tile, size and root, and
   * is exactly the checkpoint (same body) this clockchain holds at its
   * sequence. `valid`: all three.
   */
  async verifyAnchored(receipt: unknown, proof: unknown): Promise<VerifyResult> {
    const key = await this.#open();
    const log = await this.#openLog();
    return verifyAnchored(receipt as Receipt, proof as AnchorProof, this.#keysOf(key), (sequence) => log.headHashAt(sequence));
  }

  /**
   * A ZTT signer for one window in one zone whose window certificates this
   * authority's key signs (docs/ztt.md); by the authority's clock unless
   * given one (a simulated run's). Missions that anchor `signed ZTT` use it.
   */
  zttSigner(options: { readonly window: Window; readonly zone: ZoneInput; readonly clock?: () => number | Date }): ZttSigner {
    this.#assertUsable();
    return createZttSigner({ window: options.window, zone: options.zone, clock: options.clock ?? this.#clock, authority: this.#signer });
  }

  /**
   * This authority's certificate for an ephemeral key generated elsewhere (a remote signer's, `POST ztt/certify`)
   * for the opening of `request.window` that is open now by this authority's clock (docs/ztt.md, "Remote signing").
   */
  async certifyZttKey(request: ZttCertifyRequest): Promise<ZttCertificate> {
    this.#assertUsable();
    return certifyEphemeralKey(await this.#signer.load(), request, toUnixMs(this.#clock()));
  }

  /** Key id -> public key: the signing key and the retired keys, which verify what they signed. */
  async publicKeys(): Promise<Record<string, PublicKeyJwk>> {
    const keys = this.#keysOf(await this.#open());
    return Object.fromEntries(keys.all.map((key) => [key.key_id, key.jwk]));
  }

  /** The key id and the log's counts, including any torn tail the log removed. */
  async status(): Promise<AuthorityStatus> {
    const key = await this.#open();
    const { records, tiles, anchors, last_checkpoint, recovered } = await (await this.#openLog()).status();
    return { key_id: key.verifying.key_id, records, tiles: tiles.length, anchors, last_checkpoint, recovered };
  }

  /**
   * Key id -> the key as a C2SP note verifier key under the authority name (what `GET keys` gives as `note_verifier_keys`),
   * retired keys included. Without a configured name each key is under the default name it signed with, its own.
   */
  async noteVerifierKeys(): Promise<Record<string, string>> {
    const keys = this.#keysOf(await this.#open());
    return Object.fromEntries(keys.all.map((key) => [key.key_id, authorityVerifierKey(key.jwk, this.#authorityNameOf(key))]));
  }

  #authorityNameOf(key: VerifyingKey): string {
    return this.#authorityName ?? defaultAuthorityName(key.jwk);
  }

  /** The log's key set for the loaded key, built once (the key and the retired keys do not change after open). */
  #keysOf(key: SigningKey): LogKeys {
    if (this.#logKeys?.current !== key.verifying) this.#logKeys = new LogKeys(key.verifying, this.#previousKeys);
    return this.#logKeys;
  }

  /** Refuses new calls, stops witnessing, waits for anchors in progress, then closes the log and challenge stores. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // First, so anchors waiting for finality give up (AUTHORITY_CLOSED) instead of holding the close for their timeout.
    await this.#witnessing?.close();
    await Promise.allSettled(this.#anchoring);
    await this.#queue.idle();
    if (this.#releasing !== undefined) return this.#releasing;
    await Promise.all([this.#log.close(), this.#challenges.close()]);
  }

  /** The key, loaded once, and the log, opened (verified against the key); a failure is retried by the next call. */
  #open(): Promise<SigningKey> {
    this.#assertUsable();
    return this.#openParts();
  }

  readonly #openParts = onceUnlessRejected(async () => {
    const key = await this.#signer.load();
    await this.#log.open(key.verifying, this.#previousKeys);
    const { last_checkpoint: last, tiles } = await this.#log.status();
    this.#assertSameOrigin(key, last);
    if (this.#witnessing !== undefined) await this.#witnessing.open(this.#keysOf(key), tiles);
    return key;
  });

  /**
   * The checkpoints this key signs next must carry the log's origin, or verifiers and witnesses would see a new log.
   * Without a configured name the name derives from the key, so it is checked whoever signed last (a name configured
   * once and dropped since changes it too); a configured name is checked when a retired key signed last (a rotation).
   * `AUTHORITY_NAME_CHANGED` says which name to configure.
   */
  #assertSameOrigin(key: SigningKey, last: SignedCheckpoint | undefined): void {
    if (last === undefined) return;
    if (this.#authorityName !== undefined && originSignature(parseNote(last.note), last.origin, rawPublicKey(key.verifying.jwk)) !== undefined) return;
    const logName = parseTileOrigin(last.origin).authority_name;
    const name = this.#authorityNameOf(key.verifying);
    if (name === logName) return;
    throw new TemporalError(
      "AUTHORITY_NAME_CHANGED",
      `${this.#name} signs with key ${key.verifying.key_id}, whose checkpoints would carry authority name ${name}, but the clockchain's are ${logName}` +
        `${this.#authorityName === undefined ? " (without a configured name, the name derives from the key)" : ""}: configure the authority name ${JSON.stringify(logName)} (temporal-service: "authority_name" in the config) so the log keeps its origin`,
    );
  }

  async #openLog(): Promise<LogStore> {
    await this.#open();
    return this.#log;
  }

  /** A clock reading checked with the rule signed records use, so nothing is signed that reopening the log would reject. */
  #signingTime(): number {
    const reading = this.#clock();
    const unixMs = toUnixMs(reading);
    const problem = UNIX_MS_RULE(unixMs);
    if (problem !== undefined) throw new TemporalRangeError("INVALID_TIME", `the clock read ${describeValue(reading)}, which cannot be signed: issued_unix_ms ${problem}`);
    return unixMs;
  }

  #assertUsable(): void {
    if (this.#closed) throw new TemporalError("AUTHORITY_CLOSED", `${this.#name} is closed`);
    this.#assertNotFailed();
  }

  #assertNotFailed(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }
}

/** Composes an authority from a signer, a log store and a challenge store (see `ComposedAuthority`). */
export function createAuthority(parts: AuthorityParts): ComposedAuthority {
  return new ComposedAuthority(parts);
}

function randomNonce(): string {
  const crypto = (globalThis as { crypto?: { getRandomValues(bytes: Uint8Array): Uint8Array } }).crypto;
  if (crypto === undefined) throw new TemporalError("WEBCRYPTO_UNAVAILABLE", "challenges need WebCrypto (globalThis.crypto.getRandomValues), which this runtime does not provide");
  return bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
}
