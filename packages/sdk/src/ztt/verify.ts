import { canonicalJson } from "../core/canonical-json.js";
import { base64UrlToBytes } from "../core/encoding.js";
import { contextAt } from "../core/phase.js";
import { signingPayload } from "../core/signed-record.js";
import { sha256Hex } from "../core/sha256.js";
import { VerifyingKey, type PublicKeyInput } from "../core/verifying-key.js";
import { allow } from "../core/window.js";
import { certificateIssues, verifyCertificateSignature } from "./certificate.js";
import type { ZttBundle } from "./signer.js";
import { windowInterval } from "./window-interval.js";

export type ZttCheckName = "certificate_signature" | "certificate_interval" | "ephemeral_signature" | "signing_context" | "payload_sha256";

export interface ZttCheck {
  readonly name: ZttCheckName;
  readonly ok: boolean;
  /** Why the check failed; absent when it passed. */
  readonly reason?: string;
}

export interface ZttVerification {
  readonly valid: boolean;
  readonly checks: readonly ZttCheck[];
}

/**
 * Decides offline, with the authority's public keys only, whether `bundle` was signed while its certificate's
 * window was open. `payload`, when given, must hash to the bundle's `payload_sha256`.
 */
export async function verifyZtt(bundle: ZttBundle, publicKeys: readonly PublicKeyInput[], options: { payload?: string | Uint8Array } = {}): Promise<ZttVerification> {
  const checks: ZttCheck[] = [await certificateSignature(bundle, publicKeys), certificateInterval(bundle), await ephemeralSignature(bundle), signingContext(bundle)];
  if (options.payload !== undefined) checks.push(check("payload_sha256", sha256Hex(options.payload) === bundle.payload_sha256, "the payload does not hash to payload_sha256"));
  return { valid: checks.every((c) => c.ok), checks };
}

function check(name: ZttCheckName, ok: boolean, reason: string): ZttCheck {
  return ok ? { name, ok } : { name, ok, reason };
}

async function certificateSignature(bundle: ZttBundle, publicKeys: readonly PublicKeyInput[]): Promise<ZttCheck> {
  const issues = certificateIssues(bundle?.certificate);
  if (issues.length > 0) return check("certificate_signature", false, `malformed certificate: ${issues.map((i) => `${i.field} ${i.reason}`).join("; ")}`);
  const keys = await Promise.all(publicKeys.map((k) => VerifyingKey.from(k)));
  const key = keys.find((k) => k.key_id === bundle.certificate.key_id);
  if (key === undefined) return check("certificate_signature", false, `no public key with id ${bundle.certificate.key_id}`);
  return check("certificate_signature", await verifyCertificateSignature(bundle.certificate, key), "the authority's signature does not match the certificate");
}

/** The UTC milliseconds in the certificate must be the opening its degrees, zone and day name. */
function certificateInterval(bundle: ZttBundle): ZttCheck {
  const c = bundle?.certificate;
  try {
    const interval = windowInterval(c.window_deg, c.swt_zone, c.day_index);
    return check(
      "certificate_interval",
      interval.start_unix_ms === c.start_unix_ms && interval.end_unix_ms === c.end_unix_ms,
      "start/end_unix_ms are not the opening of window_deg in swt_zone on day_index",
    );
  } catch (error) {
    return check("certificate_interval", false, String((error as Error).message));
  }
}

async function ephemeralSignature(bundle: ZttBundle): Promise<ZttCheck> {
  const raw = typeof bundle?.certificate?.ephemeral_x === "string" ? base64UrlToBytes(bundle.certificate.ephemeral_x) : undefined;
  if (raw === undefined || raw.length !== 32) return check("ephemeral_signature", false, "the certificate's ephemeral_x is not a 32-byte key");
  const key = await VerifyingKey.from(raw);
  if (bundle.key_id !== key.key_id) return check("ephemeral_signature", false, `key_id ${bundle.key_id} is not the certificate's ephemeral key ${key.key_id}`);
  return check("ephemeral_signature", await key.verify(bundle.signature, signingPayload(bundle)), "the ephemeral signature does not match the bundle");
}

/** The signing context must be a genuine context of its instant, in the certificate's zone and window opening. */
function signingContext(bundle: ZttBundle): ZttCheck {
  const { context, certificate: c } = bundle ?? {};
  try {
    const expected = contextAt(context.unix_ms, { zone: context.swt_zone, source: context.source });
    if (canonicalJson(expected) !== canonicalJson(context)) return check("signing_context", false, "the context's fields disagree with its unix_ms");
    if (context.swt_zone !== c.swt_zone) return check("signing_context", false, `the context is in zone Z${context.swt_zone}, the certificate in Z${c.swt_zone}`);
    const inside = context.unix_ms >= c.start_unix_ms && context.unix_ms <= c.end_unix_ms && allow(context, c.window_deg);
    return check("signing_context", inside, `signed at ${context.utc}, outside the window ${new Date(c.start_unix_ms).toISOString()} .. ${new Date(c.end_unix_ms).toISOString()}`);
  } catch (error) {
    return check("signing_context", false, String((error as Error).message));
  }
}
