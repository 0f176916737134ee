import { canonicalJson } from "../core/canonical-json.js";
import { isKeySet } from "../core/anchor-proof.js";
import { base64UrlToBytes, loneSurrogateAt } from "../core/encoding.js";
import { DEFAULT_FINALITY_TIMEOUT_MS } from "../core/finality.js";
import type { KeySet } from "../core/service-types.js";
import { contextAt } from "../core/phase.js";
import { signingPayload } from "../core/signed-record.js";
import { quorumFor, witnessVerifiers, type WitnessSet } from "../core/verify-finality.js";
import { sha256Hex } from "../core/sha256.js";
import { VerifyingKey, type PublicKeyInput } from "../core/verifying-key.js";
import type { Window, ZoneInput } from "../core/types.js";
import { allow, windowTicks } from "../core/window.js";
import { parseZone } from "../core/zones.js";
import { TemporalError, describeValue, type FieldIssue } from "../core/errors.js";
import { withoutAnchor } from "./anchor.js";
import { check, guarded, type ZttCheck } from "./checks.js";
import { anchorInclusion, anchorReceipt, witnessedTime, type WitnessedTimePolicy } from "./verify-anchor.js";
import { ZTT_VERSION, certifiesWindow, certificateIssues, verifyCertificateSignature } from "./certificate.js";
import type { ZttBundle } from "./signer.js";
import { windowInterval } from "./window-interval.js";

/**
 * How far the receipt's issue time and the witnessed time may lie past the window's end, and the signing past the
 * witnessed time, by default: 60 s, the default finality wait (`anchorZtt` with a `quorum`: signing at the window's
 * last moment, then anchoring and cosigning) plus 30 s of disagreement between the signer's and the witnesses' clocks.
 */
export const DEFAULT_ZTT_SKEW_MS = DEFAULT_FINALITY_TIMEOUT_MS + 30_000;

export interface ZttVerifyOptions {
  /** The payload, when the verifier has it: it must hash to the bundle's `payload_sha256`. */
  readonly payload?: string | Uint8Array;
  /**
   * The cosignature/v1 vkeys of the witnesses the verifier trusts, or their `parseWitnesses` set. Given, the bundle
   * must carry a `FINAL` anchor whose witnessed time brackets the signing (`witnessed_time`); a bundle without one fails that check.
   */
  readonly witnesses?: readonly string[] | WitnessSet;
  /** Cosignatures of trusted witnesses needed, k; the witnessed time is the k-th smallest. Default a majority of the distinct keys in `witnesses`. */
  readonly quorum?: number;
  /** Clock skew allowed, ms, 0..86 400 000; default `DEFAULT_ZTT_SKEW_MS`. */
  readonly skewMs?: number;
  /**
   * The log's keys (a list, or the `GET keys` reply): what must have signed the anchor's receipt and checkpoints
   * (`anchor_receipt`, `anchor_inclusion`, `witnessed_time`). Default: the `publicKeys` given for the certificate,
   * right when one authority both certifies and logs. Certificates are only ever checked against `publicKeys`.
   */
  readonly log?: readonly PublicKeyInput[] | KeySet;
  /**
   * A bundle without an anchor fails (`anchor_receipt`): without it, whoever steals the certifying key can sign
   * bundles for any past opening, since nothing outside the bundle dates the signing.
   */
  readonly requireAnchor?: boolean;
  /**
   * The window and zone the verifier expects the certificate for: otherwise `certificate_interval` fails. Without them,
   * `valid` says the bundle was signed inside the opening of some window its certificate names, whichever that is:
   * anyone with a Managed key can get a certificate for any window open now, `[0, 360]` among them.
   */
  readonly window?: Window;
  readonly zone?: ZoneInput;
}

export interface ZttVerification {
  readonly valid: boolean;
  readonly checks: readonly ZttCheck[];
  /** The witnessed time computed from the valid cosignatures (POSIX seconds), when `witnessed_time` got that far. */
  readonly witnessed_unix_s?: number;
}

const MAX_SKEW_MS = 86_400_000;

/** What `verifyZtt` checks against, from its options once they are validated. */
interface ZttPolicy {
  readonly skewMs: number;
  readonly requireAnchor: boolean;
  readonly witnessed: WitnessedTimePolicy | undefined;
  readonly expected: ExpectedOpening;
}

/** What the verifier asks of the certificate's window and zone (`window`, `zone`); each absent when not asked. */
interface ExpectedOpening {
  readonly window?: Window;
  readonly zone?: number;
}

/**
 * Decides offline, with public keys only (the certifier's as `publicKeys`, a list or the `GET keys` reply), whether `bundle` was
 * signed while its certificate's window was open; with `witnesses`, also whether witnesses saw it anchored inside that window (plus the skew).
 * An attached anchor is always checked (`anchor_receipt`, `anchor_inclusion`) against `options.log`, the log's keys
 * (default `publicKeys`). Never throws for a bad bundle: every check runs guarded, so JSON that makes one throw fails
 * that check. Throws for bad options, which are the verifier's own configuration: `INVALID_ARGUMENT`, and
 * `INVALID_NOTE_KEY` or `INVALID_COSIGNATURE` for a witness vkey that is not a cosignature/v1 key.
 */
export async function verifyZtt(bundle: ZttBundle, publicKeys: readonly PublicKeyInput[] | KeySet, options: ZttVerifyOptions = {}): Promise<ZttVerification> {
  const policy = await zttPolicy(options);
  const certifiers = await verifyingKeys(publicKeys);
  const logKeys = options.log === undefined ? certifiers : await verifyingKeys(options.log);
  // Found once: certificate_signature names them, and the checks that read the certificate's fields need there to be none.
  const certificateProblems = certificateIssues(bundle?.certificate);
  const wellFormed = certificateProblems.length === 0;
  const checks: ZttCheck[] = [
    await guarded("certificate_signature", () => certificateSignature(bundle, certifiers, certificateProblems)),
    await guarded("certificate_interval", () => certificateInterval(bundle, policy.expected, wellFormed)),
    await guarded("ephemeral_signature", () => ephemeralSignature(bundle)),
    await guarded("signing_context", () => signingContext(bundle, wellFormed)),
  ];
  if (options.payload !== undefined) checks.push(payloadCheck(bundle, options.payload));
  if (bundle?.anchor !== undefined) checks.push(await anchorReceipt(bundle, logKeys, policy.skewMs), await anchorInclusion(bundle, logKeys));
  else if (policy.requireAnchor) checks.push(check("anchor_receipt", false, "the bundle carries no anchor, and one is required"));
  const trusted = policy.witnessed;
  if (trusted === undefined) return { valid: checks.every((c) => c.ok), checks };
  // A witnessed time of another bundle's anchor (or of a receipt the log did not sign) says nothing of this one.
  const anchorFailed = bundle?.anchor !== undefined && checks.some((c) => (c.name === "anchor_receipt" || c.name === "anchor_inclusion") && !c.ok);
  if (anchorFailed) return { valid: false, checks: [...checks, check("witnessed_time", false, "the anchor is not this bundle's: anchor_receipt or anchor_inclusion failed")] };
  let witnessedS: number | undefined;
  checks.push(
    await guarded("witnessed_time", async () => {
      const witnessed = await witnessedTime(bundle, logKeys, trusted);
      witnessedS = witnessed.witnessed_unix_s;
      return witnessed.check;
    }),
  );
  return { valid: checks.every((c) => c.ok), checks, ...(witnessedS === undefined ? {} : { witnessed_unix_s: witnessedS }) };
}

function verifyingKeys(keys: readonly PublicKeyInput[] | KeySet): Promise<VerifyingKey[]> {
  return Promise.all((isKeySet(keys) ? Object.values(keys.keys) : keys).map((k) => VerifyingKey.from(k)));
}

async function zttPolicy(options: ZttVerifyOptions): Promise<ZttPolicy> {
  const bad = (problem: string) => new TemporalError("INVALID_ARGUMENT", `verifyZtt options: ${problem}`);
  if (typeof options !== "object" || options === null) throw bad(`must be an object, got ${describeValue(options)}`);
  const { witnesses, quorum, skewMs = DEFAULT_ZTT_SKEW_MS, requireAnchor = false, log } = options;
  const expected = expectedOpening(options, bad);
  if (!Number.isSafeInteger(skewMs) || skewMs < 0 || skewMs > MAX_SKEW_MS) throw bad(`skewMs must be a whole number of ms in 0..${MAX_SKEW_MS}, got ${describeValue(skewMs)}`);
  if (typeof requireAnchor !== "boolean") throw bad(`requireAnchor must be a boolean, got ${describeValue(requireAnchor)}`);
  if (log !== undefined && !Array.isArray(log) && !isKeySet(log)) throw bad(`log must be a list of public keys or the GET keys reply, got ${describeValue(log)}`);
  if (witnesses === undefined) {
    if (quorum !== undefined) throw bad("quorum needs witnesses, the vkeys whose cosignatures count");
    return { skewMs, requireAnchor, witnessed: undefined, expected };
  }
  // Each vkey parsed once, here or by parseWitnesses: a vkey that is not cosignature/v1 is the caller's mistake whatever
  // the bundle holds (INVALID_NOTE_KEY / INVALID_COSIGNATURE now); a key listed twice, or under two names, is one
  // witness, so the majority is of distinct keys; and witnessed_time checks the cosignatures with these same verifiers.
  const trusted = await witnessVerifiers(witnesses, "verifyZtt options: witnesses");
  if (trusted.length === 0) throw bad(`witnesses must name at least one cosignature/v1 vkey, got ${describeValue(witnesses)}`);
  const k = quorumFor(quorum, trusted.length);
  if (!Number.isSafeInteger(k) || k < 1 || k > trusted.length)
    throw bad(`quorum must be a whole number in 1..${trusted.length} (the distinct witness keys given), got ${describeValue(quorum)}`);
  return { skewMs, requireAnchor, witnessed: { witnesses: trusted, quorum: k, skewMs }, expected };
}

function expectedOpening({ window, zone }: ZttVerifyOptions, bad: (problem: string) => Error): ExpectedOpening {
  const named = (what: string, read: () => unknown) => {
    try {
      read();
    } catch (error) {
      throw bad(`${what}: ${(error as Error).message}`);
    }
  };
  if (window !== undefined) named("window", () => windowTicks(window));
  let swtZone: number | undefined;
  if (zone !== undefined) named("zone", () => (swtZone = parseZone(zone)));
  return { ...(window === undefined ? {} : { window }), ...(swtZone === undefined ? {} : { zone: swtZone }) };
}

async function certificateSignature(bundle: ZttBundle, keys: readonly VerifyingKey[], issues: readonly FieldIssue[]): Promise<ZttCheck> {
  if (issues.length > 0) return check("certificate_signature", false, `malformed certificate: ${issues.map((i) => `${i.field} ${i.reason}`).join("; ")}`);
  const key = keys.find((k) => k.key_id === bundle.certificate.key_id);
  if (key === undefined) return check("certificate_signature", false, `no public key with id ${bundle.certificate.key_id}`);
  return check("certificate_signature", await verifyCertificateSignature(bundle.certificate, key), "the authority's signature does not match the certificate");
}

/** The payload must hash to `payload_sha256`; text with a lone surrogate never does, since no bundle signs it (its UTF-8 would be another text's). */
function payloadCheck(bundle: ZttBundle, payload: string | Uint8Array): ZttCheck {
  const surrogate = typeof payload === "string" ? loneSurrogateAt(payload) : -1;
  if (surrogate !== -1) return check("payload_sha256", false, `the payload has a lone surrogate at index ${surrogate}, which UTF-8 cannot encode: no bundle signs it`);
  return check("payload_sha256", sha256Hex(payload) === bundle?.payload_sha256, "the payload does not hash to payload_sha256");
}

/** What the checks that read the certificate's fields say when it has none to read (certificate_signature names them). */
const MALFORMED_CERTIFICATE = "the certificate is malformed: see certificate_signature";

/** The UTC milliseconds in the certificate must be the opening its degrees, zone and day name; the window and zone the verifier expects, if it said. */
function certificateInterval(bundle: ZttBundle, expected: ExpectedOpening, wellFormed: boolean): ZttCheck {
  const c = bundle?.certificate;
  if (!wellFormed) return check("certificate_interval", false, MALFORMED_CERTIFICATE);
  if (expected.window !== undefined && !certifiesWindow(c, expected.window)) {
    return check("certificate_interval", false, `the certificate is for window [${c.window_deg.join(", ")}], not the expected [${expected.window.join(", ")}]`);
  }
  if (expected.zone !== undefined && c.swt_zone !== expected.zone)
    return check("certificate_interval", false, `the certificate is for zone Z${c.swt_zone}, not the expected Z${expected.zone}`);
  const interval = windowInterval(c.window_deg, c.swt_zone, c.day_index);
  return check(
    "certificate_interval",
    interval.start_unix_ms === c.start_unix_ms && interval.end_unix_ms === c.end_unix_ms,
    "start/end_unix_ms are not the opening of window_deg in swt_zone on day_index",
  );
}

/** The fields of a version-1 bundle; anything else is refused by name rather than as a signature mismatch. */
const BUNDLE_FIELDS: ReadonlySet<string> = new Set(["ztt_version", "certificate", "payload_sha256", "context", "key_id", "signature", "anchor"]);

async function ephemeralSignature(bundle: ZttBundle): Promise<ZttCheck> {
  const unknown = Object.keys(bundle).filter((field) => !BUNDLE_FIELDS.has(field));
  if (unknown.length > 0) return check("ephemeral_signature", false, `unknown bundle field(s) ${unknown.join(", ")}: a bundle has ${[...BUNDLE_FIELDS].join(", ")}`);
  const version: unknown = bundle.ztt_version;
  if (version !== ZTT_VERSION) return check("ephemeral_signature", false, `ztt_version is ${describeValue(version)}, not ${String(ZTT_VERSION)}: the only version this verifier knows`);
  const raw = typeof bundle?.certificate?.ephemeral_x === "string" ? base64UrlToBytes(bundle.certificate.ephemeral_x) : undefined;
  if (raw === undefined || raw.length !== 32) return check("ephemeral_signature", false, "the certificate's ephemeral_x is not a 32-byte key");
  const key = await VerifyingKey.from(raw);
  if (bundle.key_id !== key.key_id) return check("ephemeral_signature", false, `key_id ${bundle.key_id} is not the certificate's ephemeral key ${key.key_id}`);
  // The anchor is attached after signing: the signature covers every other field.
  return check("ephemeral_signature", await key.verify(bundle.signature, signingPayload(withoutAnchor(bundle))), "the ephemeral signature does not match the bundle");
}

/** The signing context must be a genuine context of its instant, in the certificate's zone and window opening. */
function signingContext(bundle: ZttBundle, wellFormed: boolean): ZttCheck {
  const { context, certificate: c } = bundle ?? {};
  if (context === undefined) return check("signing_context", false, "the bundle has no context");
  if (typeof context !== "object" || context === null || Array.isArray(context)) return check("signing_context", false, `the context is ${describeValue(context)}, not an object`);
  if (!wellFormed) return check("signing_context", false, MALFORMED_CERTIFICATE);
  const expected = contextAt(context.unix_ms, { zone: context.swt_zone, source: context.source });
  if (canonicalJson(expected) !== canonicalJson(context)) return check("signing_context", false, "the context's fields disagree with its unix_ms");
  if (context.swt_zone !== c.swt_zone) return check("signing_context", false, `the context is in zone Z${context.swt_zone}, the certificate in Z${c.swt_zone}`);
  const inside = context.unix_ms >= c.start_unix_ms && context.unix_ms <= c.end_unix_ms && allow(context, c.window_deg);
  return check("signing_context", inside, `signed at ${context.utc}, outside the window ${new Date(c.start_unix_ms).toISOString()} .. ${new Date(c.end_unix_ms).toISOString()}`);
}
