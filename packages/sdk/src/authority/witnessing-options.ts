/**
 * Checks of witnessing's options and of an anchor's wait for finality, with
 * the coded errors a caller can act on: `INVALID_WITNESSING` for a bad
 * option, `QUORUM_UNREACHABLE` for a quorum the configured witnesses cannot
 * give, `FINALITY_TIMEOUT` (carrying the provisional proof) for a wait that
 * ran out.
 */

import { COSIGNATURE_V1_TYPE } from "../core/cosignature.js";
import { bytesToHex } from "../core/encoding.js";
import { TemporalError, describeValue } from "../core/errors.js";
import { parseVerifierKey, type NoteVerifierKey } from "../core/note-key.js";
import { finalityWaitOf } from "../core/finality.js";
import type { AnchorOptions } from "../core/types.js";
import type { WitnessingStore } from "./witnessing-store.js";

/** One witness: its add-checkpoint submission prefix and its cosignature/v1 vkey (`<name>+<key ID>+<key>`). */
export interface WitnessEndpoint {
  readonly url: string;
  readonly vkey: string;
}

export interface WitnessingOptions {
  readonly witnesses: readonly WitnessEndpoint[];
  /** k of n: cosignatures a checkpoint needs to make the anchors it covers `FINAL`, 1..witnesses. */
  readonly quorum: number;
  /** At most one submission per tile per interval, ms; default 1 000. Anchors never wait for it unless asked. */
  readonly intervalMs?: number;
  /** How long one submission may take before the witness counts as unreachable, ms; default 5 000. */
  readonly requestTimeoutMs?: number;
  /**
   * The longest a failing witness waits before it is asked again, ms; default 10 000. A witness that fails is asked
   * again after one interval, then two, four, ... up to this cap, so a dead witness is not asked every interval and a
   * recovered one is picked up again within the cap (plus one interval).
   */
  readonly backoffMaxMs?: number;
  /** Where cosigned checkpoints, witnesses' sizes and fork evidence are kept; default in memory. */
  readonly store?: WitnessingStore;
}

export const DEFAULT_WITNESS_INTERVAL_MS = 1_000;
export const DEFAULT_WITNESS_REQUEST_TIMEOUT_MS = 5_000;
export const DEFAULT_WITNESS_BACKOFF_MAX_MS = 10_000;
/** An interval, request timeout or backoff longer than an hour is a mistake in the config. */
const MAX_WAIT_MS = 3_600_000;

/** A witness endpoint with its vkey parsed. */
export interface ParsedEndpoint {
  readonly url: URL;
  readonly key: NoteVerifierKey;
  readonly vkey: string;
}

export interface CheckedWitnessingOptions {
  readonly endpoints: readonly ParsedEndpoint[];
  readonly quorum: number;
  readonly intervalMs: number;
  readonly requestTimeoutMs: number;
  readonly backoffMaxMs: number;
}

/** Checks witnessing options; throws `INVALID_WITNESSING` naming the field and what to fix. */
export function checkWitnessingOptions(options: WitnessingOptions): CheckedWitnessingOptions {
  const bad = (problem: string) => new TemporalError("INVALID_WITNESSING", `witnessing: ${problem}`);
  // Checked as unknown: a config read from JSON may hold anything, and Array.isArray would widen the typed array to any[].
  const given: unknown = options.witnesses;
  if (!Array.isArray(given) || given.length === 0) throw bad("witnesses must be a non-empty array of { url, vkey }");
  // A cosignature/v1 line does not bind the witness's name, so one key under two names, or one witness under two
  // spellings of its URL, would count twice towards the quorum: names, keys and URLs must each be distinct.
  const names = new Set<string>();
  const keys = new Set<string>();
  const urls = new Set<string>();
  const endpoints = options.witnesses.map((witness, i) => {
    const at = `witnesses[${i}]`;
    let url: URL;
    try {
      url = new URL(witness.url);
    } catch {
      throw bad(`${at}.url ${describeValue(witness.url)} is not an absolute URL (the witness's submission prefix)`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw bad(`${at}.url ${url.href} is not http(s)`);
    let key: NoteVerifierKey;
    try {
      key = parseVerifierKey(witness.vkey);
    } catch (error) {
      throw bad(`${at}.vkey: ${(error as Error).message}`);
    }
    if (key.signatureType !== COSIGNATURE_V1_TYPE)
      throw bad(`${at}.vkey of ${key.name} is not a cosignature/v1 (type 0x04) key; a witness prints its vkey with \`temporal-witness key create\``);
    if (names.has(key.name)) throw bad(`${at}.vkey names witness ${key.name} a second time; each witness counts once towards the quorum`);
    names.add(key.name);
    const rawKey = bytesToHex(key.publicKey);
    if (keys.has(rawKey)) throw bad(`${at}.vkey of ${key.name} has the public key of another configured witness; each key counts once towards the quorum`);
    keys.add(rawKey);
    if (urls.has(url.href)) throw bad(`${at}.url ${url.href} is the URL of another configured witness; each witness counts once towards the quorum`);
    urls.add(url.href);
    return { url, key, vkey: witness.vkey };
  });
  const quorum = options.quorum;
  if (!Number.isSafeInteger(quorum) || quorum < 1) throw bad(`quorum must be a positive integer, got ${describeValue(quorum)}`);
  if (quorum > endpoints.length) throw unreachable(quorum, endpoints.length);
  return {
    endpoints,
    quorum,
    intervalMs: checkDuration(options.intervalMs, DEFAULT_WITNESS_INTERVAL_MS, "intervalMs", bad),
    requestTimeoutMs: checkDuration(options.requestTimeoutMs, DEFAULT_WITNESS_REQUEST_TIMEOUT_MS, "requestTimeoutMs", bad),
    backoffMaxMs: checkDuration(options.backoffMaxMs, DEFAULT_WITNESS_BACKOFF_MAX_MS, "backoffMaxMs", bad),
  };
}

/**
 * The wait an anchor asked for, its quorum at least the configured one (`FINAL` always means the configured k or
 * more: a smaller quorum asked for is raised to k); undefined when it asked for none or there is nothing to wait for.
 */
export function finalityWait(options: AnchorOptions | undefined, witnesses: number, quorum: number | undefined): { quorum: number; timeoutMs: number } | undefined {
  const wait = finalityWaitOf(options);
  const wanted = effectiveQuorum(wait?.quorum, quorum);
  if (wait === undefined || wanted === undefined) return undefined;
  if (wanted > witnesses) throw unreachable(wanted, witnesses);
  return { quorum: wanted, timeoutMs: wait.timeoutMs };
}

/** The larger of the quorum asked for and the configured one; either may be absent. */
function effectiveQuorum(requested: number | undefined, configured: number | undefined): number | undefined {
  return requested === undefined ? configured : configured === undefined ? requested : Math.max(requested, configured);
}

function unreachable(quorum: number, witnesses: number): TemporalError {
  return new TemporalError("QUORUM_UNREACHABLE", `needs ${quorum} cosignature${quorum === 1 ? "" : "s"}, ${witnesses} witness${witnesses === 1 ? " is" : "es are"} configured`);
}

function checkDuration(value: number | undefined, fallback: number, field: string, bad: (problem: string) => TemporalError): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_WAIT_MS) throw bad(`${field} must be an integer number of ms in 1..${MAX_WAIT_MS}, got ${describeValue(value)}`);
  return value;
}
