import type { Signer } from "../authority/seams.js";
import { bytesToBase64Url, bytesToHex, loneSurrogateAt } from "../core/encoding.js";
import { TemporalError, TemporalTypeError, describeValue } from "../core/errors.js";
import { finalityWaitOf } from "../core/finality.js";
import { contextAt, toUnixMs } from "../core/phase.js";
import { signingPayload } from "../core/signed-record.js";
import { sha256Hex } from "../core/sha256.js";
import type { AnchorOptions, Authority, PhaseContext, Window, ZoneInput } from "../core/types.js";
import { keyIdOf } from "../core/verifying-key.js";
import { nextOpen, windowTicks } from "../core/window.js";
import { ED25519, ed25519Subtle } from "../core/webcrypto.js";
import { parseZone } from "../core/zones.js";
import { anchorZtt, type ZttAnchor } from "./anchor.js";
import { issueCertificate, ZTT_VERSION, type ZttCertificate } from "./certificate.js";
import { openingDay, windowInterval } from "./window-interval.js";

/** What `sign` returns: verifiable offline with the authority's public key alone (`verifyZtt`). */
export interface ZttBundle {
  readonly ztt_version: 1;
  readonly certificate: ZttCertificate;
  readonly payload_sha256: string;
  /** The phase context at signing, in the certificate's zone. */
  readonly context: PhaseContext;
  /** Key id of the ephemeral key (SHA-256 of its raw bytes, first 16 hex digits). */
  readonly key_id: string;
  /** Ephemeral Ed25519 signature over the canonical JSON of every other field but `anchor`. */
  readonly signature: string;
  /** The bundle's receipt and anchor proof, once anchored (`anchorZtt`); added after signing. */
  readonly anchor?: ZttAnchor;
}

export interface ZttSignerOptions {
  readonly window: Window;
  readonly zone: ZoneInput;
  /** The authority's long-term key, which signs each window certificate. */
  readonly authority: Signer;
  readonly clock?: () => number | Date;
  /** Anchor every bundle before `sign` returns it (`anchorZtt`), in this authority, waiting for `FINAL` when `quorum`/`timeoutMs` are given. */
  readonly anchor?: ZttAnchorTarget;
}

/** Where `sign` anchors: a local, memory or remote authority, and the finality wait `Authority.anchor` takes. */
export interface ZttAnchorTarget extends AnchorOptions {
  readonly authority: Authority;
}

export interface ZttSigner {
  /** Signs inside an opening of the window; `ZTT_WINDOW_CLOSED` (with `next_open_unix_ms`) outside. With `anchor`, the bundle comes back anchored. */
  sign(payload: string | Uint8Array): Promise<ZttBundle>;
  /** Whether an ephemeral private key is held right now (false once its opening has closed). */
  holdsKey(): boolean;
  /** Drops the ephemeral key now. */
  close(): void;
}

/** `sign` outside the window, or after its key's opening ended: names the next opening. */
export class ZttWindowClosedError extends TemporalError {
  readonly next_open_unix_ms: number;
  constructor(message: string, nextOpenMs: number) {
    super("ZTT_WINDOW_CLOSED", message);
    this.next_open_unix_ms = nextOpenMs;
  }
}

/** The UTC day of the window's opening that holds `unixMs`; `ZttWindowClosedError`, naming the next opening, when the window is closed then. */
export function openingDayOrClosed(unixMs: number, window: Window, zone: ZoneInput): number {
  const day = openingDay(unixMs, window, zone);
  if (day === undefined) throw windowClosedAt(unixMs, window, zone);
  return day;
}

/** `ZttWindowClosedError` at `unixMs`, naming the window's next opening after it, by this process's clock. */
function windowClosedAt(unixMs: number, window: Window, zone: ZoneInput): ZttWindowClosedError {
  const nextOpenMs = nextOpen(contextAt(unixMs, { zone }), window);
  return new ZttWindowClosedError(`${windowNamed(window)} is closed at ${iso(unixMs)}; it opens next at ${iso(nextOpenMs)}`, nextOpenMs);
}

/**
 * The window is open at `unixMs`, but in a later opening (`openDay`) than the one the key was certified for
 * (`certifiedDay`): the whole cycle, whose next opening begins as one ends, or any window whose next opening began
 * before the signature was made. "Closed at T; it opens next at T" would say nothing, so this says which opening ended
 * and which began; `next_open_unix_ms` is `unixMs`, and signing again certifies a key for the new opening.
 */
function openingEndedAt(unixMs: number, window: Window, zone: ZoneInput, certifiedDay: number, openDay: number): ZttWindowClosedError {
  const ended = windowInterval(window, zone, certifiedDay).end_unix_ms;
  const began = windowInterval(window, zone, openDay).start_unix_ms;
  return new ZttWindowClosedError(
    `the opening of ${windowNamed(window)} that the key was certified for ended at ${iso(ended)} before the signature was made, and the opening open now began at ${iso(began)}: sign again`,
    unixMs,
  );
}

/** A remote signer's `POST ztt/certify` answered 409: the service's clock decides, so its next opening is the one named. */
export function closedByServiceAt(unixMs: number, window: Window, serviceNextOpenMs: number): ZttWindowClosedError {
  return new ZttWindowClosedError(`${windowNamed(window)} is closed by the service's clock at ${iso(unixMs)}; it opens next at ${iso(serviceNextOpenMs)}`, serviceNextOpenMs);
}

function windowNamed(window: Window): string {
  return `window [${window[0]}, ${window[1]}]`;
}

function iso(unixMs: number): string {
  return new Date(unixMs).toISOString();
}

/** A remote authority certified another opening than the one the signer's clock is in: signing would fail `signing_context`. */
export class ZttClockSkewError extends TemporalError {
  constructor(window: Window, certifiedDay: number, signerDay: number) {
    super(
      "ZTT_CLOCK_SKEW",
      `the service certified the opening of window [${window[0]}, ${window[1]}] that starts on UTC day ${certifiedDay}, but the signer's clock is in the one of day ${signerDay}: the clocks disagree (sync the clock, or drop the signer's own clock)`,
    );
  }
}

/** The key of one opening: its non-extractable private half lives only here and is dropped when the opening ends. */
interface Ephemeral {
  readonly day: number;
  readonly certificate: ZttCertificate;
  readonly key_id: string;
  readonly privateKey: unknown;
}

const utf8 = new TextEncoder();
// setTimeout's longest delay; a longer wait re-arms when it fires.
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Where a signer's certificate for one opening comes from: the authority's key in this process (`createZttSigner`),
 * or a remote authority asked over HTTP (`TemporalClient.zttSigner`, `POST ztt/certify`). Given the ephemeral public
 * key (base64url), the window, the zone and the UTC day of the opening the signer's clock is in.
 */
export type ZttCertify = (ephemeralX: string, window: Window, zone: number, day: number) => Promise<ZttCertificate>;

export function createZttSigner(options: ZttSignerOptions): ZttSigner {
  const { authority, ...rest } = options;
  return zttSignerCertifiedBy(rest, async (ephemeralX, window, zone, day) => issueCertificate(await authority.load(), ephemeralX, window, zone, day));
}

/** The one signer: everything but where its certificates come from, which `certify` says. */
export function zttSignerCertifiedBy(options: Omit<ZttSignerOptions, "authority">, certify: ZttCertify): ZttSigner {
  const { window } = options;
  windowTicks(window);
  const zone = parseZone(options.zone);
  const clock = options.clock ?? Date.now;
  if (typeof clock !== "function") throw new TemporalTypeError("INVALID_TIME", `clock must be a function returning Unix milliseconds or a Date, got ${describeValue(clock)}`);
  const anchorIn = anchorTargetOf(options.anchor);
  let current: Promise<Ephemeral> | undefined;
  let currentDay: number | undefined;
  let currentEnd = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function drop(): void {
    current = undefined;
    currentDay = undefined;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  }
  function dropIfClosed(): void {
    const nowMs = toUnixMs(clock());
    if (current !== undefined && nowMs > currentEnd) drop();
    else if (current !== undefined) armTimer(currentEnd + 1 - nowMs);
  }
  function armTimer(delay: number): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(dropIfClosed, Math.min(Math.max(delay, 0), MAX_TIMER_MS));
    (timer as { unref?: () => void }).unref?.(); // never keeps a process alive
  }

  async function ephemeralFor(day: number): Promise<Ephemeral> {
    const crypto = ed25519Subtle("the ZTT signer");
    const pair = await crypto.generateKey(ED25519, false, ["sign", "verify"]);
    const raw = new Uint8Array(await crypto.exportKey("raw", pair.publicKey));
    const certificate = await certify(bytesToBase64Url(raw), window, zone, day);
    return { day, certificate, key_id: keyIdOf(raw), privateKey: pair.privateKey };
  }

  return {
    async sign(payload) {
      const surrogate = typeof payload === "string" ? loneSurrogateAt(payload) : -1;
      if (surrogate !== -1) {
        throw new TemporalTypeError(
          "INVALID_ARGUMENT",
          `the payload has a lone surrogate at index ${surrogate}, which UTF-8 cannot encode (it would be signed as U+FFFD, like other text): sign well-formed text, or the bytes as a Uint8Array`,
        );
      }
      const day = openingDayOrClosed(toUnixMs(clock()), window, zone);
      if (currentDay !== day) {
        drop();
        currentDay = day;
        const made = ephemeralFor(day);
        current = made;
        currentEnd = windowInterval(window, zone, day).end_unix_ms; // known before the key is, so holdsKey() never drops a key being made
        // Only this attempt's own failure drops: a later opening's key made meanwhile stays.
        made.catch(() => {
          if (current === made) drop();
        });
      }
      const ephemeral = await (current as Promise<Ephemeral>);
      // Certifying can take seconds (a remote authority): the context is the time of signing, not of asking, and still in the same opening.
      const signedMs = toUnixMs(clock());
      const signedDay = openingDay(signedMs, window, zone);
      if (signedDay === undefined) throw windowClosedAt(signedMs, window, zone);
      if (signedDay !== day) throw openingEndedAt(signedMs, window, zone, day, signedDay);
      const signedContext = contextAt(signedMs, { zone });
      armTimer(currentEnd + 1 - signedMs);
      const body: Omit<ZttBundle, "signature"> = {
        ztt_version: ZTT_VERSION,
        certificate: ephemeral.certificate,
        payload_sha256: sha256Hex(payload),
        context: signedContext,
        key_id: ephemeral.key_id,
      };
      const signature = bytesToHex(new Uint8Array(await ed25519Subtle("the ZTT signer").sign(ED25519, ephemeral.privateKey, utf8.encode(signingPayload(body)))));
      return anchorIn === undefined ? { ...body, signature } : anchorZtt({ ...body, signature }, anchorIn.authority, anchorIn.wait);
    },
    holdsKey() {
      dropIfClosed();
      return current !== undefined;
    },
    close: drop,
  };
}

/** The anchor option checked when the signer is made, not at the first `sign`: `INVALID_ARGUMENT` names what is wrong. */
function anchorTargetOf(target: ZttAnchorTarget | undefined): { authority: Authority; wait: AnchorOptions } | undefined {
  if (target === undefined) return undefined;
  const authority: unknown = typeof target === "object" && target !== null ? target.authority : undefined;
  if (typeof (authority as Partial<Authority> | undefined)?.issueReceipt !== "function" || typeof (authority as Partial<Authority>).anchor !== "function") {
    throw new TemporalError("INVALID_ARGUMENT", `anchor.authority must be an Authority (local, memory or remote), got ${describeValue(authority)}`);
  }
  const { quorum, timeoutMs } = target;
  const wait = { ...(quorum === undefined ? {} : { quorum }), ...(timeoutMs === undefined ? {} : { timeoutMs }) };
  finalityWaitOf(wait);
  return { authority: authority as Authority, wait };
}
