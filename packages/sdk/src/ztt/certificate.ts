import type { FieldIssue } from "../core/errors.js";
import { KEY_ID_RULE, RecordShape, SIGNATURE_RULE, UNIX_MS_RULE, exactly, integerIn, matching, type FieldRule } from "../core/fields.js";
import { signingPayload, verifySignedRecord } from "../core/signed-record.js";
import type { Window } from "../core/types.js";
import { MAX_ABS_DAY_INDEX, ZONE_COUNT } from "../core/units.js";
import type { PublicKeyInput } from "../core/verifying-key.js";
import type { SigningKey } from "../authority/seams.js";
import { windowInterval } from "./window-interval.js";

export const ZTT_VERSION = 1;

/** The authority's statement "this ephemeral key may sign inside this window opening, and nowhere else". */
export interface ZttCertificate {
  readonly ztt_version: 1;
  /** The authority's long-term key that signed the certificate. */
  readonly key_id: string;
  /** The ephemeral Ed25519 public key, raw 32 bytes as base64url (the JWK `x`). */
  readonly ephemeral_x: string;
  readonly swt_zone: number;
  readonly day_index: number;
  readonly window_deg: Window;
  readonly start_unix_ms: number;
  readonly end_unix_ms: number;
  readonly signature: string;
}

const DEGREES_RULE: FieldRule = (value) =>
  Array.isArray(value) && value.length === 2 && value.every((d) => typeof d === "number" && d >= 0 && d <= 360) ? undefined : "is not [start_deg, end_deg] in [0, 360]";

const CERTIFICATE_SHAPE = new RecordShape({
  ztt_version: exactly(ZTT_VERSION),
  key_id: KEY_ID_RULE,
  ephemeral_x: matching(/^[A-Za-z0-9_-]{43}$/, "43 base64url characters (32 bytes)"),
  swt_zone: integerIn(0, ZONE_COUNT - 1),
  day_index: integerIn(-MAX_ABS_DAY_INDEX, MAX_ABS_DAY_INDEX),
  window_deg: DEGREES_RULE,
  start_unix_ms: UNIX_MS_RULE,
  end_unix_ms: UNIX_MS_RULE,
  signature: SIGNATURE_RULE,
} satisfies Record<keyof ZttCertificate, FieldRule>);

export function certificateIssues(value: unknown): FieldIssue[] {
  return CERTIFICATE_SHAPE.issues(value);
}

/** Signs a certificate for the opening of `window` in `zone` starting on UTC day `day`. */
export async function issueCertificate(authority: SigningKey, ephemeralX: string, window: Window, zone: number, day: number): Promise<ZttCertificate> {
  const interval = windowInterval(window, zone, day);
  const body: Omit<ZttCertificate, "signature"> = {
    ztt_version: ZTT_VERSION,
    key_id: authority.verifying.key_id,
    ephemeral_x: ephemeralX,
    swt_zone: zone,
    day_index: day,
    window_deg: [window[0], window[1]],
    ...interval,
  };
  return { ...body, signature: await authority.sign(signingPayload(body)) };
}

/**
 * Whether `certificate` is for `window` exactly as written: the same two degrees, not normalised, so a certificate
 * for [330, 360] is not one for [330, 0] though `allow` reads both alike (docs/ztt.md). The one rule for the client
 * checking what the service certified and for `verifyZtt`'s expected window.
 */
export function certifiesWindow(certificate: Pick<ZttCertificate, "window_deg">, window: Window): boolean {
  return certificate.window_deg[0] === window[0] && certificate.window_deg[1] === window[1];
}

export function verifyCertificateSignature(certificate: ZttCertificate, authorityKey: PublicKeyInput): Promise<boolean> {
  return verifySignedRecord(certificate, authorityKey, (c) => certificateIssues(c).length === 0);
}
