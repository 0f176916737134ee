import { stat } from "node:fs/promises";
import { isHash } from "../core/encoding.js";
import { TemporalError, TemporalRangeError, describeValue, describeIssues } from "../core/errors.js";
import { UNIX_MS_RULE } from "../core/fields.js";
import { contextAt, toUnixMs } from "../core/phase.js";
import { RECEIPT_VERSION, receiptHash, receiptIssues, verifyReceipt } from "../core/receipt.js";
import { signingPayload } from "../core/signed-record.js";
import { assertTsaeRequest } from "../core/tsae.js";
import type { AnchorProof, AnchorSummary, Authority, AuthorityNowOptions, PhaseContext, PublicKeyJwk, Receipt, TsaeRequest } from "../core/types.js";
import { isErrno } from "./errors.js";
import { defaultHome, ensureHome, homePaths, type HomePaths } from "./home.js";
import { Ledger, type LedgerStatus } from "./ledger.js";
import { acquireLock, type HomeLock } from "./lock.js";
import { loadSigningKey, type SigningKey } from "./signing-key.js";

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

  async now(options: AuthorityNowOptions = {}): Promise<PhaseContext> {
    this.#assertUsable();
    return contextAt(this.#clock(), { zone: options.zone, source: "local" });
  }

  /** Validates a copy of the request (a `TsaeRequestError` names every bad field) and signs that copy. */
  async issueReceipt(request: TsaeRequest): Promise<Receipt> {
    const snapshot = plainCopy(request);
    assertTsaeRequest(snapshot);
    const { scope, day_index, phi_action_ticks, swt_zone, tile_id, action_hash_hex } = snapshot;
    const { key } = await this.#open();
    const unsigned = {
      scope,
      day_index,
      phi_action_ticks,
      swt_zone,
      tile_id,
      action_hash_hex,
      receipt_version: RECEIPT_VERSION,
      issued_unix_ms: this.#signingTime(),
      key_id: key.verifying.key_id,
    } as const;
    const receipt: Receipt = Object.freeze({ ...unsigned, signature: await key.sign(signingPayload(unsigned)) });
    this.#issued.add(receipt);
    return receipt;
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
    if (!Number.isSafeInteger(tileId) || tileId < 0) {
      throw new TemporalRangeError("INVALID_TILE", `a tile id is a non-negative integer, got ${describeValue(tileId)}`);
    }
    return (await this.#open()).ledger.list(tileId);
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
