/**
 * The ZTT endpoints (docs/ztt.md, docs/service.md): `POST ztt/sign` signs with the service's ZTT signer for the
 * current opening of its configured window and anchors the bundle in the service's clockchain, `POST ztt/certify`
 * certifies a client's ephemeral key for any window open now (the client signs), `POST ztt/verify` runs the SDK's
 * offline `verifyZtt` with the service's public keys (and the window and zone the caller expects). Thin: the signing, the certificates, the
 * anchoring and every check are the SDK's.
 */
import type { Signer } from "../authority/seams.js";
import type { Authority, Window, ZoneInput } from "../core/types.js";
import { base64ToBytes, base64UrlToBytes, loneSurrogateAt } from "../core/encoding.js";
import { keyIdOf } from "../core/verifying-key.js";
import { TemporalRangeError } from "../core/errors.js";
import { createZttSigner, verifyZtt, ZttWindowClosedError, type ZttBundle, type ZttCertificate, type ZttSigner, type ZttVerification } from "../ztt/index.js";
import type { ZttCertifyRequest } from "../ztt/certify.js";
import { HttpError } from "./http-error.js";
import type { Route, RouteContext, RouteInput } from "./routes.js";
import { REPLIES, REQUESTS } from "./schemas.js";
import type { ZttConfig } from "./service-config.js";

/** A ZTT request's payload as it is on the wire (`encoding` defaults to utf8). */
interface WirePayload {
  readonly payload: string;
  readonly encoding?: "utf8" | "base64";
}

/**
 * The service's ZTT signer over its authority key (`signer`), anchoring every bundle in its clockchain (`authority`)
 * without waiting for witnesses: the proof is PROVISIONAL, and `GET clockchain/proof` gives the FINAL one later.
 * Undefined when `config` is null. Made once per service, not per pipeline: a reconfigure must not mint a second
 * ephemeral key for an opening that already has one.
 */
export function serviceZttSigner(config: ZttConfig | null, signer: Signer, authority: Authority, clock: () => number): ZttSigner | undefined {
  return config === null ? undefined : createZttSigner({ window: config.window, zone: config.zone, authority: signer, clock, anchor: { authority } });
}

/** The bytes or text that were signed; base64 that does not decode, or text that UTF-8 cannot encode, is the client's mistake, named like a schema problem. */
function payloadOf({ payload, encoding }: WirePayload): string | Uint8Array {
  if (encoding !== "base64") {
    const surrogate = loneSurrogateAt(payload);
    if (surrogate === -1) return payload;
    // JSON can write one (`"\ud800"`), but it is no text: as UTF-8 it would be U+FFFD, the same bytes as other payloads.
    throw new HttpError(400, "VALIDATION_FAILED", `body.payload has a lone surrogate at index ${surrogate}`, {
      details: [{ field: "body.payload", problem: `must be well-formed Unicode text (a lone surrogate at index ${surrogate} has no UTF-8); send the bytes as base64 instead` }],
    });
  }
  const bytes = base64ToBytes(payload);
  if (bytes === undefined) {
    throw new HttpError(400, "VALIDATION_FAILED", "body.payload is not base64", {
      details: [{ field: "body.payload", problem: "must be base64 (RFC 4648, padded) when encoding is base64" }],
    });
  }
  return bytes;
}

/** An anchored bundle nests about five levels (bundle, anchor, proof, witnessed, cosignatures); anything far deeper is not one. */
const MAX_BUNDLE_DEPTH = 8;

/** Whether `value` nests objects or arrays deeper than `limit`; iterative, since the point is to avoid deep recursion. */
function deeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== "object" || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/** The body of `POST ztt/verify`, validated by its schema. */
interface VerifyBody extends Partial<WirePayload> {
  readonly bundle: ZttBundle;
  readonly witnesses?: readonly string[];
  readonly quorum?: number;
  readonly skew_ms?: number;
  readonly require_anchor?: boolean;
  readonly window?: Window;
  readonly zone?: ZoneInput;
}

/** verifyZtt refuses bad witness vkeys or a quorum above them as the caller's configuration (400 with its code). */
async function verify(body: VerifyBody, context: RouteContext): Promise<ZttVerification> {
  // verifyZtt canonicalises the bundle recursively: a body nested thousands deep would overflow the stack.
  if (deeperThan(body.bundle, MAX_BUNDLE_DEPTH)) {
    throw new HttpError(400, "VALIDATION_FAILED", "body.bundle is not a ZTT bundle", {
      details: [{ field: "body.bundle", problem: `nests deeper than ${MAX_BUNDLE_DEPTH} levels` }],
    });
  }
  const { bundle, payload, encoding, witnesses, quorum, skew_ms: skewMs, require_anchor: requireAnchor, window, zone } = body;
  const options = {
    ...(payload === undefined ? {} : { payload: payloadOf({ payload, encoding }) }),
    ...(witnesses === undefined ? {} : { witnesses }),
    ...(quorum === undefined ? {} : { quorum }),
    ...(skewMs === undefined ? {} : { skewMs }),
    ...(requireAnchor === undefined ? {} : { requireAnchor }),
    ...(window === undefined ? {} : { window }),
    ...(zone === undefined ? {} : { zone }),
  };
  // The service's keys certify its ZTT signer and sign its log: one list is both publicKeys and log here.
  return verifyZtt(bundle, Object.values(await context.authority.publicKeys()), options);
}

async function sign(body: WirePayload, context: RouteContext): Promise<ZttBundle> {
  if (context.ztt === undefined)
    throw new HttpError(404, "ZTT_NOT_CONFIGURED", 'this service has no ZTT window: set "ztt": { "window": [a, b], "zone": "Zn" } in its config (docs/service.md)');
  try {
    return await context.ztt.sign(payloadOf(body));
  } catch (error) {
    throw windowClosed(error, context);
  }
}

async function certify(body: ZttCertifyRequest, context: RouteContext, outcome: RouteInput["outcome"]): Promise<ZttCertificate> {
  try {
    const certificate = await context.authority.certifyZttKey(body);
    // Who got a certificate for which key and opening: the request log adds the API key's id and tier and the request id.
    if (outcome !== undefined) outcome.audit = certifiedAudit(certificate);
    return certificate;
  } catch (error) {
    // The request schema already refused a bad window or zone (VALIDATION_FAILED); of the SDK's refusals only the key's remains.
    if (!(error instanceof TemporalRangeError && error.code === "ZTT_KEY_INVALID")) throw windowClosed(error, context);
    throw new HttpError(400, error.code, error.message, { details: [{ field: "body.ephemeral_x", problem: error.message }] });
  }
}

/** The audit record of a certificate: the ephemeral key's id as bundles give it, never more of a key than that. */
function certifiedAudit(certificate: ZttCertificate): Readonly<Record<string, unknown>> {
  const { ephemeral_x, window_deg, swt_zone, day_index } = certificate;
  return { event: "ztt_certified", ephemeral_key_id: keyIdOf(base64UrlToBytes(ephemeral_x) as Uint8Array), window: window_deg, zone: swt_zone, day_index };
}

/**
 * `ZTT_WINDOW_CLOSED` as 409, a conflict with the window's state by the service's clock rather than a bad request:
 * the same request succeeds once the window opens (`Retry-After`, `next_open_unix_ms`). Anything else as it is.
 */
function windowClosed(error: unknown, context: RouteContext): unknown {
  if (!(error instanceof ZttWindowClosedError)) return error;
  const waitSeconds = Math.max(1, Math.ceil((error.next_open_unix_ms - context.clock()) / 1000));
  return new HttpError(409, error.code, error.message, { headers: { "retry-after": String(waitSeconds) }, extra: { next_open_unix_ms: error.next_open_unix_ms } });
}

export const ZTT_ROUTES: readonly Route[] = [
  {
    method: "POST",
    path: "/ztt/sign",
    operationId: "signZtt",
    tier: "managed",
    summary:
      "ZTT-sign a payload with the ephemeral key of the current opening of the service's window, anchored in the clockchain; 409 ZTT_WINDOW_CLOSED (with next_open_unix_ms) outside it, 404 ZTT_NOT_CONFIGURED without one",
    body: REQUESTS.zttSign,
    status: 200,
    reply: REPLIES.zttBundle,
    handle: ({ body }, context) => sign(body as WirePayload, context),
  },
  {
    method: "POST",
    path: "/ztt/certify",
    operationId: "certifyZtt",
    tier: "managed",
    summary:
      "Certify a client's ephemeral Ed25519 public key for the opening of a window that is open now by the service's clock (the client keeps the private key and signs); 409 ZTT_WINDOW_CLOSED (with next_open_unix_ms) outside it, 400 ZTT_KEY_INVALID for a key that is not a canonical point of large order",
    body: REQUESTS.zttCertify,
    status: 200,
    reply: REPLIES.zttCertificate,
    handle: ({ body, outcome }, context) => certify(body as ZttCertifyRequest, context, outcome),
  },
  {
    method: "POST",
    path: "/ztt/verify",
    operationId: "verifyZtt",
    tier: "public",
    summary:
      "Which checks of a ZTT bundle hold with this service's public keys (and, given the payload, its hash; given a window and zone, whether the certificate is for them); never an error for a bundle that fails them",
    body: REQUESTS.zttVerify,
    status: 200,
    reply: REPLIES.zttVerification,
    handle: ({ body }, context) => verify(body as VerifyBody, context),
  },
];
