import { randomBytes } from "node:crypto";
import { stat } from "node:fs/promises";
import { CHALLENGE_VERSION, challengeIssues, verifyChallenge } from "../core/challenge.js";
import { isHash } from "../core/encoding.js";
import { TemporalError, TemporalRangeError, describeValue, describeIssues } from "../core/errors.js";
import { UNIX_MS_RULE } from "../core/fields.js";
import { KERNEL_VERSION, contextAt, toUnixMs } from "../core/phase.js";
import { RECEIPT_VERSION, receiptHash, receiptIssues, verifyReceipt } from "../core/receipt.js";
import type { AnchorPage, Challenge, ClockchainStatus, ConsistencyProof, TsaeIssueRequest, VerifyResult } from "../core/service-types.js";
import { signingPayload } from "../core/signed-record.js";
import { assertTsaeRequest } from "../core/tsae.js";
import type { AnchorProof, AnchorSummary, Authority, AuthorityNowOptions, PhaseContext, PublicKeyJwk, Receipt, TsaeRequest } from "../core/types.js";
import { isErrno } from "./errors.js";
import { defaultHome, ensureHome, homePaths, type HomePaths } from "./home.js";
import { Ledger, type LedgerStatus } from "./ledger.js";
import { acquireLock, type HomeLock } from "./lock.js";
import { OutstandingChallenges } from "./outstanding-challenges.js";
import { loadSigningKey, type SigningKey } from "./signing-key.js";
import { verifyAnchored } from "./verify-anchored.js";

const DEFAULT_CHALLENGE_TTL_MS = 60_000;
const MIN_CHALLENGE_TTL_MS = 1_000;
const MAX_CHALLENGE_TTL_MS = 3_600_000;
const DEFAULT_PAGE_LIMIT = 100;
const MAX_PAGE_LIMIT = 1_000;

export interface LocalAuthorityOptions {
  /** Directory for the key, ledger and lock; defaults to `$TEMPORAL_HOME`, else `./.temporal`. */
  readonly home?: string;
  /** Time source for `now()`, `issued_unix_ms` and signed heads; defaults to `Date.now`. */
  readonly clock?: () => number | Date;
}

export interface LocalAuthorityStatus extends LedgerStatus {
  readonly home: string;
  readonly key_id: string;
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

interface OpenHome {
  readonly key: SigningKey;
  readonly ledger: Ledger;
  readonly lock: HomeLock;
}

/**
 * The embedded authority: signs receipts with a key kept in its home and
 * anchors them in the local clockchain. Creating one does no I/O; the home
 * is created, locked and verified on first use.
 */
export class LocalAuthority implements Authority {
  readonly kind = "local";
  readonly home: string;
  readonly #paths: HomePaths;
  readonly #clock: () => number | Date;
  #opening: Promise<OpenHome> | undefined;
  #closed = false;
  /** Set when the ledger could not undo a failed append; every call then rejects with it. */
  #failure: TemporalError | undefined;
  #releasing: Promise<void> | undefined;
  /**
   * Receipts issued here (frozen, so still exactly as signed). `anchor` skips
   * the Ed25519 verification for them, which costs more than signing.
   */
  readonly #issued = new WeakSet<Receipt>();
  /** Anchor calls not yet settled, which `close` waits for. */
  readonly #anchoring = new Set<Promise<AnchorProof>>();
  /** Nonces of challenges issued by this instance and not yet used; memory only, so a restart forgets them. */
  readonly #challenges = new OutstandingChallenges();

  constructor(options: LocalAuthorityOptions = {}) {
    this.#paths = homePaths(options.home ?? defaultHome());
    this.home = this.#paths.home;
    this.#clock = options.clock ?? Date.now;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** True once a failed write to the ledger could not be undone; the authority then refuses every call and has released its home. */
  get failed(): boolean {
    return this.#failure !== undefined;
  }

  /**
   * Opens the home as the first use would (creates and locks it, so it is
   * writable; loads the key; verifies the ledger) and reads the clock as a
   * signature would. Rejects with that step's error: the Node.js error of
   * the folder (`ENOTDIR`, `EACCES`), `HOME_LOCKED`, `KEY_INVALID`,
   * `LEDGER_CORRUPT`, `INVALID_TIME`.
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
    const { request: snapshot, challenge } = splitChallenge(plainCopy(request), options);
    assertTsaeRequest(snapshot);
    if (challenge !== undefined) assertChallengeShape(challenge);
    const { scope, day_index, phi_action_ticks, swt_zone, tile_id, action_hash_hex } = snapshot;
    const { key } = await this.#open();
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
    this.#issued.add(receipt);
    return receipt;
  }

  /**
   * A single-use freshness anchor: a random 32-byte nonce, signed with the
   * authority key, valid for `ttlMs` by the authority's clock. Pass it to
   * `issueReceipt` to prove the receipt was made after the challenge.
   * Outstanding nonces are kept in memory only (at most 100 000, the oldest
   * dropped first), so challenges do not survive a restart.
   */
  async issueChallenge(options: ChallengeOptions = {}): Promise<Challenge> {
    const ttlMs = options.ttlMs === undefined ? DEFAULT_CHALLENGE_TTL_MS : options.ttlMs;
    if (!(Number.isInteger(ttlMs) && ttlMs >= MIN_CHALLENGE_TTL_MS && ttlMs <= MAX_CHALLENGE_TTL_MS)) {
      throw new TemporalRangeError("INVALID_TTL", `challenge ttlMs ${describeValue(ttlMs)} is not an integer in ${MIN_CHALLENGE_TTL_MS}..${MAX_CHALLENGE_TTL_MS}`);
    }
    const { key } = await this.#open();
    const issuedUnixMs = this.#signingTime();
    const expiresUnixMs = issuedUnixMs + ttlMs;
    const problem = UNIX_MS_RULE(expiresUnixMs);
    if (problem !== undefined) throw new TemporalRangeError("INVALID_TIME", `a challenge issued at ${issuedUnixMs} cannot expire ${ttlMs} ms later: expires_unix_ms ${problem}`);
    const unsigned = {
      challenge_version: CHALLENGE_VERSION,
      nonce: randomBytes(32).toString("hex"),
      issued_unix_ms: issuedUnixMs,
      expires_unix_ms: expiresUnixMs,
      key_id: key.verifying.key_id,
    } as const;
    const challenge: Challenge = Object.freeze({ ...unsigned, signature: await key.sign(signingPayload(unsigned)) });
    this.#challenges.add(challenge.nonce, expiresUnixMs, issuedUnixMs);
    return challenge;
  }

  /**
   * Checks a well-formed challenge against this authority at `now` (the
   * receipt's `issued_unix_ms`) and uses it up. Taking the nonce is
   * synchronous, so of concurrent uses of one challenge exactly one wins.
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
    this.#challenges.purge(now);
    if (!this.#challenges.take(challenge.nonce)) {
      throw new TemporalError("CHALLENGE_UNKNOWN", `challenge ${challenge.nonce} is not outstanding here: already used, issued before this authority started, or dropped as the oldest of ${this.#challenges.capacity} outstanding`);
    }
  }

  /** Anchors a receipt signed by this authority; resolves once it is on disk. Anchoring the same receipt again returns its proof. */
  anchor(receipt: Receipt): Promise<AnchorProof> {
    const anchoring = this.#anchor(receipt);
    this.#anchoring.add(anchoring);
    const forget = () => this.#anchoring.delete(anchoring);
    anchoring.then(forget, forget);
    return anchoring;
  }

  async #anchor(receipt: Receipt): Promise<AnchorProof> {
    if (this.#issued.has(receipt)) return this.#append(receipt);
    // A frozen copy, so the caller mutating its object cannot change what gets written after it was checked.
    const snapshot: Receipt = Object.freeze(plainCopy(receipt));
    const issues = receiptIssues(snapshot);
    if (issues.length > 0) throw new TemporalError("RECEIPT_REJECTED", `cannot anchor a malformed receipt: ${describeIssues(issues)}`);
    const { key } = await this.#open();
    if (!(await verifyReceipt(snapshot, key.verifying))) {
      throw new TemporalError("RECEIPT_REJECTED", `receipt signature does not verify with this authority's key ${key.verifying.key_id} (receipt key_id ${describeValue(snapshot.key_id)})`);
    }
    return this.#append(snapshot);
  }

  async #append(receipt: Receipt): Promise<AnchorProof> {
    const home = await this.#open();
    try {
      return await home.ledger.anchor(receipt, receiptHash(receipt));
    } catch (error) {
      if (home.ledger.failure !== undefined) await this.#giveUp(home, home.ledger.failure);
      throw error;
    }
  }

  /**
   * The ledger could not undo a failed append, so its file's contents are
   * unknown. Refuses every later call, and releases the home so that a new
   * authority (`defaultSdk()` makes one) or a restarted process can reopen
   * it, which re-verifies the file.
   */
  #giveUp(home: OpenHome, failure: TemporalError): Promise<void> {
    this.#failure ??= failure;
    // Best effort: the storage has already failed, and the error that matters is the one the callers get.
    this.#releasing ??= home.ledger
      .close()
      .catch(() => undefined)
      .then(() => home.lock.release())
      .catch(() => undefined);
    return this.#releasing;
  }

  async getAnchorProof(receiptHashHex: string): Promise<AnchorProof | undefined> {
    if (!isHash(receiptHashHex)) {
      throw new TemporalRangeError("INVALID_HASH", `a receipt hash is 64 lowercase hex digits, got ${describeValue(receiptHashHex)}`);
    }
    return (await this.#open()).ledger.proof(receiptHashHex);
  }

  async listAnchors(tileId: number): Promise<AnchorSummary[]> {
    assertTileId(tileId);
    return (await this.#open()).ledger.list(tileId);
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
    if (!(Number.isSafeInteger(offset) && offset >= 0)) throw new TemporalRangeError("INVALID_PAGE", `offset ${describeValue(offset)} is not an integer >= 0`);
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= MAX_PAGE_LIMIT)) {
      throw new TemporalRangeError("INVALID_PAGE", `limit ${describeValue(limit)} is not an integer in 1..${MAX_PAGE_LIMIT}`);
    }
    return (await this.#open()).ledger.page(tileId, offset, limit);
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
    return (await this.#open()).ledger.consistencyProof(tileId, first, second);
  }

  /**
   * The clockchain's state in the service's wire shape, with no file paths.
   *
   * `chain_valid` is true when the ledger verified completely when it was
   * opened (every record's checksum, leaf order, tree root, head link and
   * head signature; it does not open otherwise), every head added since
   * links by sequence and `prev_head_hash` to the one before it back to
   * genesis (checked as each is published), and no failed append has left
   * the file in an unknown state. It is not a re-read of the file: changes
   * made to it by others after it was opened show only when it is reopened,
   * and whole records cut off its end before it was opened cannot show at
   * all (compare `last_head` with a head kept elsewhere). Once the authority
   * has stopped after such a failure this call rejects with
   * `LEDGER_IO_FAILED`, like every other.
   */
  async clockchainStatus(): Promise<ClockchainStatus> {
    const { ledger } = await this.#open();
    const { records, anchors, last_head, recovered } = ledger.status();
    return {
      kernel_version: KERNEL_VERSION,
      chain_valid: ledger.chainValid,
      tiles: ledger.tiles(),
      anchors,
      last_head: last_head ?? null,
      store: { kind: "file", records },
      recovered: recovered === undefined ? null : { offset: recovered.offset, bytes: recovered.bytes },
    };
  }

  /**
   * Checks a receipt and its anchor proof against this authority; never
   * throws for malformed input (the parts it cannot check are false).
   * `signature`: the receipt is well formed and signed by this authority's
   * key. `inclusion`: its hash is the proof's leaf in the receipt's tile and
   * the path leads to the proof's root, which the proof's signed head states
   * for that tile and size. `chain`: that head is signed by this key, covers
   * the proof's tile, size and root, and is exactly the head (same
   * `headHash`) this clockchain holds at its sequence. `valid`: all three.
   */
  async verifyAnchored(receipt: unknown, proof: unknown): Promise<VerifyResult> {
    const { key, ledger } = await this.#open();
    return verifyAnchored(receipt as Receipt, proof as AnchorProof, key.verifying, (sequence) => ledger.headHashAt(sequence));
  }

  async publicKeys(): Promise<Record<string, PublicKeyJwk>> {
    const { verifying } = (await this.#open()).key;
    return { [verifying.key_id]: verifying.jwk };
  }

  /** Ledger health, including any torn tail removed when it was opened. */
  async status(): Promise<LocalAuthorityStatus> {
    const { key, ledger } = await this.#open();
    return { home: this.home, key_id: key.verifying.key_id, ...ledger.status() };
  }

  /** Refuses new calls, waits for anchors in progress, closes the ledger and releases the home. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled(this.#anchoring);
    const open = await this.#opening?.catch(() => undefined);
    if (open === undefined) return;
    await open.ledger.close();
    await open.lock.release();
  }

  #open(): Promise<OpenHome> {
    this.#assertUsable();
    this.#opening ??= this.#openHome().catch((error: unknown) => {
      this.#opening = undefined;
      throw error;
    });
    return this.#opening;
  }

  async #openHome(): Promise<OpenHome> {
    await ensureHome(this.#paths);
    const lock = await acquireLock(this.#paths.lock);
    try {
      const key = await loadSigningKey(this.#paths.signingKey, !(await hasContent(this.#paths.ledger)));
      const ledger = await Ledger.open(this.#paths.ledger, key, () => this.#signingTime());
      return { key, ledger, lock };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** A clock reading checked with the rule signed records use, so nothing is signed that reopening the ledger would reject. */
  #signingTime(): number {
    const reading = this.#clock();
    const unixMs = toUnixMs(reading);
    const problem = UNIX_MS_RULE(unixMs);
    if (problem !== undefined) throw new TemporalRangeError("INVALID_TIME", `the clock read ${describeValue(reading)}, which cannot be signed: issued_unix_ms ${problem}`);
    return unixMs;
  }

  #assertUsable(): void {
    if (this.#closed) throw new TemporalError("AUTHORITY_CLOSED", `the local authority at ${this.home} is closed`);
    if (this.#failure !== undefined) throw this.#failure;
  }
}

export function createLocalAuthority(options: LocalAuthorityOptions = {}): LocalAuthority {
  return new LocalAuthority(options);
}

async function hasContent(path: string): Promise<boolean> {
  try {
    return (await stat(path)).size > 0;
  } catch (error) {
    if (isErrno(error, "ENOENT")) return false;
    throw error;
  }
}

/**
 * A plain copy of an object argument, reading each property once, so that
 * getters or concurrent changes cannot make what is validated differ from
 * what is signed or written. Anything else is returned for validation to reject.
 */
function plainCopy<T>(value: T): T {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : value;
}

function assertTileId(tileId: number): void {
  if (!Number.isSafeInteger(tileId) || tileId < 0) {
    throw new TemporalRangeError("INVALID_TILE", `a tile id is a non-negative integer, got ${describeValue(tileId)}`);
  }
}

/**
 * Separates a challenge carried in the request (the service's
 * `TsaeIssueRequest`) from the request fields, so it is not rejected as an
 * unknown field, and settles which challenge applies. Non-objects pass
 * through for validation to reject.
 */
function splitChallenge(request: TsaeRequest | TsaeIssueRequest, options: IssueReceiptOptions): { request: TsaeRequest; challenge: unknown } {
  let fields: unknown = request;
  let carried: unknown;
  if (typeof request === "object" && request !== null && !Array.isArray(request) && Object.hasOwn(request, "challenge")) {
    ({ challenge: carried, ...fields } = request as TsaeIssueRequest);
  }
  const given: unknown = typeof options === "object" && options !== null ? options.challenge : undefined;
  if (carried !== undefined && given !== undefined && carried !== given) {
    throw new TemporalError("CHALLENGE_INVALID", "a challenge was given both in the request and in the options; give it once");
  }
  // Copied like the request, so what is checked is what gets used.
  return { request: fields as TsaeRequest, challenge: plainCopy(given ?? carried) };
}

function assertChallengeShape(challenge: unknown): asserts challenge is Challenge {
  const issues = challengeIssues(challenge);
  if (issues.length > 0) throw new TemporalError("CHALLENGE_INVALID", `malformed challenge: ${describeIssues(issues)}`);
}
