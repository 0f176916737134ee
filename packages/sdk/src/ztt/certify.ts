/**
 * An authority certifies an ephemeral key that somebody else generated (`POST ztt/certify`, docs/ztt.md, "Remote
 * signing"): the key and the window come from the client, the opening and the time from the authority's own clock.
 */
import type { SigningKey } from "../authority/seams.js";
import { base64UrlToBytes } from "../core/encoding.js";
import { TemporalRangeError } from "../core/errors.js";
import type { Window, ZoneInput } from "../core/types.js";
import { windowTicks } from "../core/window.js";
import { parseZone } from "../core/zones.js";
import { issueCertificate, type ZttCertificate } from "./certificate.js";
import { ephemeralKeyProblem } from "./ephemeral-key.js";
import { openingDayOrClosed } from "./signer.js";

/** What a client asks an authority to certify: its ephemeral public key, for the opening of a window that is open now. */
export interface ZttCertifyRequest {
  /** The ephemeral Ed25519 public key, 32 raw bytes as base64url (the certificate's `ephemeral_x`). */
  readonly ephemeral_x: string;
  readonly window: Window;
  readonly zone: ZoneInput;
}

/**
 * Signs, with `authority`, a certificate for `request.ephemeral_x` for the opening of `request.window` in
 * `request.zone` that is open at `nowMs` (the authority's clock, never the client's). Rejects with
 * `ZTT_KEY_INVALID` for a key that is not a canonical point of large order, `INVALID_WINDOW` / `INVALID_ZONE` for a
 * bad window or zone, and `ZttWindowClosedError` (`ZTT_WINDOW_CLOSED`, with the next opening) when the window is
 * closed at `nowMs`.
 */
export async function certifyEphemeralKey(authority: SigningKey, request: ZttCertifyRequest, nowMs: number): Promise<ZttCertificate> {
  // The cheap checks first: a closed window or a bad zone costs no BigInt point arithmetic.
  windowTicks(request.window);
  const zone = parseZone(request.zone);
  const day = openingDayOrClosed(nowMs, request.window, zone);
  const raw = base64UrlToBytes(request.ephemeral_x);
  const problem = raw === undefined ? "is not canonical unpadded base64url" : ephemeralKeyProblem(raw);
  if (problem !== undefined) throw new TemporalRangeError("ZTT_KEY_INVALID", `ephemeral_x ${problem}`);
  return issueCertificate(authority, request.ephemeral_x, request.window, zone, day);
}
