/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 uses) of every request and reply.
 * Requests are validated with them; replies are documented by them in the
 * OpenAPI document, and a test checks real replies against them.
 */

type Schema = Record<string, unknown>;

const integer = (minimum?: number, maximum?: number): Schema => ({
  type: "integer",
  ...(minimum === undefined ? {} : { minimum }),
  ...(maximum === undefined ? {} : { maximum }),
});
const number = (extra: Schema = {}): Schema => ({ type: "number", ...extra });
const string = (extra: Schema = {}): Schema => ({ type: "string", ...extra });
const hash = string({ pattern: "^[0-9a-f]{64}$" });
const signature = string({ pattern: "^[0-9a-f]{128}$" });
const degrees = number({ minimum: 0, exclusiveMaximum: 360 });
const unixMs = integer();

/** An object with exactly these properties; every one is required unless listed in `optional`. */
function object(properties: Record<string, Schema>, optional: readonly string[] = []): Schema {
  return {
    type: "object",
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    properties,
    additionalProperties: false,
  };
}

// A `title` is what a value must be, in the words a refusal uses ("must be <title>", schema-problems.ts), where the
// failed keyword's own words would be a pattern or one problem per form.
export const ZONE_QUERY = string({ pattern: "^Z?(?:[0-9]|1[01])$", title: "an SWT zone: 0..11 or Z0..Z11", description: "SWT zone: 0..11 or Z0..Z11 (default 0)" });
const zoneBody = {
  oneOf: [integer(0, 11), string({ pattern: "^Z(?:[0-9]|1[01])$" })],
  title: 'an SWT zone: 0..11 or "Z0".."Z11"',
  description: 'SWT zone: 0..11 or "Z0".."Z11"',
};
export const WINDOW = {
  type: "array",
  prefixItems: [number({ minimum: 0, maximum: 360 }), number({ minimum: 0, maximum: 360 })],
  items: false,
  minItems: 2,
  description: "[start_deg, end_deg]; start > end wraps through 0",
};
const timeStamp = object({ day_index: integer(), phi_ticks: integer(0, 86_399_999) });

export const PHASE_CONTEXT = object({
  kernel_version: { const: "4.6.2" },
  unix_ms: unixMs,
  utc: string(),
  day_index: integer(),
  phi_ticks: integer(0, 86_399_999),
  swt_zone: integer(0, 11),
  tile_id: integer(),
  phase_deg: degrees,
  utc_phase_deg: degrees,
  source: { enum: ["local", "remote"] },
});

const challenge = object({
  challenge_version: { const: 1 },
  nonce: hash,
  issued_unix_ms: unixMs,
  expires_unix_ms: unixMs,
  key_id: string(),
  signature,
});

const tsaeFields = {
  scope: string(),
  day_index: integer(),
  phi_action_ticks: integer(),
  swt_zone: integer(),
  tile_id: integer(),
  action_hash_hex: string(),
};

const tsaeIssueRequest = object({ ...tsaeFields, challenge: { type: "object" } }, ["challenge"]);

export const RECEIPT = object(
  {
    ...tsaeFields,
    action_hash_hex: hash,
    receipt_version: { const: 1 },
    issued_unix_ms: unixMs,
    key_id: string(),
    challenge_nonce: hash,
    signature,
  },
  ["challenge_nonce"],
);

const signedCheckpointFields = {
  tile_id: integer(0),
  origin: string({ description: "<authority name>/tile/<tile id>" }),
  tree_size: integer(1),
  root_hash: hash,
  sequence: integer(0),
  prev_checkpoint_hash: hash,
  issued_unix_ms: unixMs,
  note: string({
    description:
      "The C2SP signed note: the tlog-checkpoint body (origin, size, base64 root, temporal-chain and temporal-issued lines), a blank line, signature lines. This is what is verified; the other fields are its parsed body.",
  }),
};
export const SIGNED_CHECKPOINT = {
  ...object(signedCheckpointFields),
  description: "A tile head as a C2SP tlog-checkpoint in a signed note (docs/checkpoints.md)",
};

/** A checkpoint with witnesses' cosignature/v1 lines appended to its note (docs/witness.md). */
const cosignedCheckpoint = {
  ...object({ ...signedCheckpointFields, cosignatures: { type: "array", items: object({ witness: string(), timestamp: integer(1) }) } }),
  description: "A tile checkpoint whose note also carries the valid cosignature/v1 lines of the witnesses listed in cosignatures",
};

export const ANCHOR_PROOF = object(
  {
    receipt_hash: hash,
    tile_id: integer(0),
    leaf_index: integer(0),
    tree_size: integer(1),
    root_hash: hash,
    inclusion_proof: { type: "array", items: hash },
    checkpoint: SIGNED_CHECKPOINT,
    finality: { enum: ["PROVISIONAL", "FINAL"], description: "With witnesses: FINAL once a checkpoint covering the leaf has a quorum of cosignatures" },
    witnessed: {
      ...object({ checkpoint: cosignedCheckpoint, consistency_proof: { type: "array", items: hash }, quorum: integer(1), witnessed_unix_s: integer(1) }),
      description:
        "When FINAL: the cosigned checkpoint, the RFC 9162 consistency proof between tree_size and its size (smaller first), and the witnessed time: the quorum-th smallest cosignature timestamp",
    },
  },
  ["finality", "witnessed"],
);

const anchorSummary = object({ tile_id: integer(0), leaf_index: integer(0), receipt_hash: hash, anchored_unix_ms: unixMs });
const jwk = object({ kty: { const: "OKP" }, crv: { const: "Ed25519" }, x: string(), kid: string() });
const noteVerifierKey = string({ pattern: "^[^\\s+]+\\+[0-9a-f]{8}\\+[A-Za-z0-9+/]+={0,2}$", description: "<name>+<hex key ID>+<base64(0x01 || Ed25519 public key)>" });

export const ERROR_BODY = object({
  error: object(
    {
      code: string({ pattern: "^[A-Z][A-Z0-9_]*$" }),
      message: string(),
      details: { type: "array", items: object({ field: string(), problem: string() }) },
      next_open_unix_ms: { ...unixMs, description: "ZTT_WINDOW_CLOSED: when the signer's window opens next" },
    },
    ["details", "next_open_unix_ms"],
  ),
});

// --- ZTT (docs/ztt.md) ---

const zttPayload = {
  payload: string({ description: "The payload: UTF-8 text, or base64 (RFC 4648, padded) when encoding is base64" }),
  encoding: { enum: ["utf8", "base64"], description: "How payload is written (default utf8); base64 signs arbitrary bytes" },
};
const EPHEMERAL_X = string({ pattern: "^[A-Za-z0-9_-]{43}$", title: "32 bytes as base64url without padding (43 characters)" });
const ZTT_CERTIFICATE = {
  ...object({
    ztt_version: { const: 1 },
    key_id: string({ description: "The authority key that signed the certificate" }),
    ephemeral_x: { ...EPHEMERAL_X, description: "The ephemeral Ed25519 public key, base64url" },
    swt_zone: integer(0, 11),
    day_index: integer(),
    window_deg: WINDOW,
    start_unix_ms: unixMs,
    end_unix_ms: unixMs,
    signature,
  }),
  description: "The window certificate: the authority's long-term key certifies the ephemeral key for one opening of the window",
};
const ZTT_BUNDLE = {
  ...object(
    {
      ztt_version: { const: 1 },
      certificate: ZTT_CERTIFICATE,
      payload_sha256: hash,
      context: PHASE_CONTEXT,
      key_id: string(),
      signature,
      anchor: {
        ...object({ receipt: RECEIPT, proof: ANCHOR_PROOF }),
        description: "The bundle in the clockchain: the service's receipt of the bundle's hash (scope ztt.bundle.v1) and its anchor proof",
      },
    },
    ["anchor"],
  ),
  description: "A ZTT signature bundle (docs/ztt.md): verifiable offline with the authority's public key alone (verifyZtt, temporalc verify)",
};

/** Query and body schemas of each endpoint. */
export const REQUESTS = {
  zoneOnly: object({ zone: ZONE_QUERY }, ["zone"]),
  twatchNow: object({ t0: integer(-8_640_000_000_000_000, 8_640_000_000_000_000), zone: ZONE_QUERY }, ["t0", "zone"]),
  diff: object({ start: timeStamp, end: timeStamp }),
  tsae: tsaeIssueRequest,
  allow: object(
    { window: WINDOW, zone: zoneBody, at_unix_ms: { ...integer(-8_640_000_000_000_000, 8_640_000_000_000_000), description: "decide for this instant instead of now (a what-if check)" } },
    ["zone", "at_unix_ms"],
  ),
  tpeVector: object({ zone: ZONE_QUERY, harmonics: integer(1, 64) }, ["zone", "harmonics"]),
  decision: object({ threshold: number({ minimum: 0, maximum: 1 }) }, ["threshold"]),
  carbon: object({ hours: integer(1, 168), duration_minutes: integer(1, 1440) }, ["hours", "duration_minutes"]),
  schedule: object(
    {
      tasks: {
        type: "array",
        minItems: 1,
        maxItems: 100,
        items: object(
          {
            name: string({ minLength: 1, maxLength: 128 }),
            duration_ms: integer(1, 86_400_000),
            window: WINDOW,
            carbon_max: number({ exclusiveMinimum: 0 }),
          },
          ["carbon_max"],
        ),
      },
      zone: zoneBody,
      horizon_hours: number({ exclusiveMinimum: 0, maximum: 168 }),
    },
    ["zone", "horizon_hours"],
  ),
  verify: object(
    { receipt: { type: "object" }, proof: { type: "object" }, result: { description: "the action payload; its canonical JSON SHA-256 must be the receipt's action_hash_hex" } },
    ["result"],
  ),
  anchor: object(
    {
      receipt: { type: "object" },
      quorum: {
        ...integer(1, 1000),
        description: "Wait until a checkpoint covering the receipt has this many witness cosignatures (default: the service's quorum, when timeout_ms is given)",
      },
      timeout_ms: { ...integer(1, 3_600_000), description: "How long to wait for FINAL; the answer is then the PROVISIONAL proof (default 30000 when quorum is given)" },
    },
    ["quorum", "timeout_ms"],
  ),
  proof: object(
    { receipt_hash: string({ minLength: 1 }), tile_id: integer(0, Number.MAX_SAFE_INTEGER), first: integer(1, Number.MAX_SAFE_INTEGER), second: integer(1, Number.MAX_SAFE_INTEGER) },
    ["receipt_hash", "tile_id", "first", "second"],
  ),
  anchors: object({ tile_id: integer(0, Number.MAX_SAFE_INTEGER), offset: integer(0, Number.MAX_SAFE_INTEGER), limit: integer(1, 1000) }, ["offset", "limit"]),
  none: object({}),
  zttSign: object(zttPayload, ["encoding"]),
  zttCertify: object({
    ephemeral_x: {
      ...EPHEMERAL_X,
      description: "The client's ephemeral Ed25519 public key, 32 raw bytes as base64url (a canonical point of large order); the private key stays with the client",
    },
    window: WINDOW,
    zone: zoneBody,
  }),
  zttVerify: object(
    {
      bundle: { type: "object", description: "A ZTT signature bundle, as POST ztt/sign returns it" },
      ...zttPayload,
      witnesses: {
        type: "array",
        minItems: 1,
        maxItems: 100,
        items: string({ minLength: 1 }),
        description: "cosignature/v1 vkeys of the witnesses the caller trusts: the bundle's anchor must then be FINAL with a witnessed time that brackets the signing (witnessed_time)",
      },
      quorum: { ...integer(1, 100), description: "Cosignatures of those witnesses needed (default a majority)" },
      skew_ms: { ...integer(0, 86_400_000), description: "Clock skew allowed for anchor_receipt's issue time and witnessed_time (default 60000)" },
      require_anchor: { type: "boolean", description: "A bundle without an anchor fails anchor_receipt (default false)" },
      window: { ...WINDOW, description: "[start_deg, end_deg] the certificate must be for, as window_deg: certificate_interval fails for another (default: any window)" },
      zone: { ...zoneBody, description: 'SWT zone the certificate must be for (0..11 or "Z0".."Z11"): certificate_interval fails for another (default: any zone)' },
    },
    ["payload", "encoding", "witnesses", "quorum", "skew_ms", "require_anchor", "window", "zone"],
  ),
} as const;

const witnessError = object({ tile_id: integer(0), status: { type: ["integer", "null"] }, message: string(), unix_ms: unixMs });
const WITNESSING_STATUS = {
  ...object({
    quorum: integer(1),
    health: { enum: ["HEALTHY", "DEGRADED", "STALLED", "FORKED"] },
    witnesses: {
      type: "array",
      items: object({
        name: string(),
        url: string(),
        vkey: string(),
        tiles: { type: "array", items: object({ tile_id: integer(0), cosigned_size: integer(1), cosigned_unix_s: integer(1) }) },
        last_error: { oneOf: [witnessError, { type: "null" }] },
        state: { enum: ["UNKNOWN", "ANSWERING", "FAILING"] },
        consecutive_failures: integer(0),
        next_attempt_unix_ms: { type: ["integer", "null"] },
        forks_not_kept: integer(0),
      }),
    },
    tiles: {
      type: "array",
      items: object({
        tile_id: integer(0),
        tree_size: integer(1),
        final_size: integer(0),
        quorum_met: { type: "boolean" },
        witnessed_unix_s: { type: ["integer", "null"] },
        cosigned: { oneOf: [cosignedCheckpoint, { type: "null" }] },
        cosignatures: integer(0),
        health: { enum: ["HEALTHY", "DEGRADED", "STALLED", "FORKED"] },
      }),
    },
    forks: {
      type: "array",
      items: object({
        tile_id: integer(0),
        witness: string(),
        note: string(),
        witness_note: { type: ["string", "null"] },
        consistency_proof: {
          oneOf: [object({ first: integer(1), second: integer(1), first_root: hash, second_root: hash, proof: { type: "array", items: hash } }), { type: "null" }],
        },
        witness_size: integer(1),
        message: string(),
        detected_unix_ms: unixMs,
      }),
    },
    store_error: { type: ["string", "null"] },
    round_error: { type: ["string", "null"] },
    restore_dropped: { type: "array", items: string() },
  }),
  description: "The witnesses' BFT state (docs/witness.md); absent when the service has no witnesses",
};
const tileStatus = object({ tile_id: integer(0), tree_size: integer(1), root_hash: hash });
const carbonWindow = object({ start_unix_ms: unixMs, end_unix_ms: unixMs, intensity: number({ minimum: 0 }) });
const scheduledTask = object(
  {
    name: string(),
    status: { enum: ["SCHEDULED", "UNSCHEDULABLE"] },
    start_unix_ms: unixMs,
    end_unix_ms: unixMs,
    start_phase_deg: degrees,
    carbon_intensity: number({ minimum: 0 }),
    reason: { enum: ["WINDOW_TOO_SHORT", "NO_START_IN_HORIZON", "CARBON_ABOVE_MAX"] },
  },
  ["start_unix_ms", "end_unix_ms", "start_phase_deg", "carbon_intensity", "reason"],
);

/** Reply schemas of each endpoint. */
export const REPLIES = {
  context: PHASE_CONTEXT,
  twatchNow: object({
    ctx: PHASE_CONTEXT,
    sync: object({ t0_unix_ms: { type: ["integer", "null"] }, receive_unix_ms: unixMs, transmit_unix_ms: unixMs }),
    prompt: string(),
  }),
  duration: object({ ticks: integer(), ms: integer(), seconds: number(), iso8601: string() }),
  coreState: object({ kernel_version: { const: "4.6.2" }, unix_ms: unixMs, day_index: integer(), phi_ticks: integer(0, 86_399_999), phase_deg: degrees }),
  challenge,
  allow: object({
    allow: { type: "boolean" },
    verdict: { enum: ["ALLOW", "DENY"] },
    phase_deg: degrees,
    next_open_unix_ms: unixMs,
    ctx: PHASE_CONTEXT,
  }),
  tpeVector: object({
    vector: { type: "array", items: number({ minimum: -1, maximum: 1 }) },
    harmonics: integer(1, 64),
    layout: object({
      cycles: { const: ["daily", "weekly", "yearly"] },
      per_cycle: integer(2, 128),
      order: { const: "sin_cos_by_harmonic" },
    }),
    ctx: PHASE_CONTEXT,
  }),
  decision: object({
    score: number({ minimum: 0, maximum: 1 }),
    threshold: number({ minimum: 0, maximum: 1 }),
    verdict: { enum: ["ALLOW", "DENY"] },
    updated_unix_ms: unixMs,
    source: { enum: ["static", "file", "simulator"] },
  }),
  carbon: object({
    unit: { const: "gCO2eq/kWh" },
    location: { type: ["string", "null"] },
    current: number({ minimum: 0 }),
    best_window: carbonWindow,
    horizon_hours: integer(1, 168),
    duration_minutes: integer(1, 1440),
    source: { enum: ["static", "file"] },
  }),
  schedule: object({ from_unix_ms: unixMs, horizon_hours: number(), tasks: { type: "array", items: scheduledTask } }),
  verify: object({ signature: { type: "boolean" }, inclusion: { type: "boolean" }, chain: { type: "boolean" }, result: { type: "boolean" }, valid: { type: "boolean" } }, ["result"]),
  receipt: RECEIPT,
  anchorProof: ANCHOR_PROOF,
  proof: { oneOf: [ANCHOR_PROOF, object({ tile_id: integer(0), first: integer(1), second: integer(1), first_root: hash, second_root: hash, proof: { type: "array", items: hash } })] },
  anchors: object({
    tile_id: integer(0),
    total: integer(0),
    offset: integer(0),
    anchors: { type: "array", items: anchorSummary },
    next_offset: { type: ["integer", "null"] },
  }),
  status: object(
    {
      kernel_version: { const: "4.6.2" },
      chain_valid: { type: "boolean" },
      tiles: { type: "array", items: tileStatus },
      anchors: integer(0),
      last_checkpoint: { oneOf: [SIGNED_CHECKPOINT, { type: "null" }] },
      store: object(
        {
          kind: string({ description: '"file" (a home), "postgres" or "memory"' }),
          records: integer(0),
          node_id: string({ description: "The service node that answered (temporal-service --node-id)" }),
          reachable: { type: "boolean", description: "Whether that node reached its store when asked" },
        },
        ["node_id", "reachable"],
      ),
      recovered: { oneOf: [object({ offset: integer(0), bytes: integer(0) }), { type: "null" }] },
      witnessing: WITNESSING_STATUS,
    },
    ["witnessing"],
  ),
  keys: object({
    keys: { type: "object", additionalProperties: jwk },
    note_verifier_keys: {
      type: "object",
      additionalProperties: noteVerifierKey,
      description: "Key id -> the key as a C2SP signed-note verifier key under the authority name; a tile's checkpoint key is derived from it (docs/checkpoints.md)",
    },
  }),
  openapi: { type: "object", required: ["openapi", "info", "paths"] },
  zttBundle: ZTT_BUNDLE,
  zttCertificate: ZTT_CERTIFICATE,
  zttVerification: object(
    {
      valid: { type: "boolean", description: "Every check holds" },
      checks: {
        type: "array",
        items: object(
          {
            name: string({
              description:
                "certificate_signature, certificate_interval, ephemeral_signature, signing_context, payload_sha256, anchor_receipt, anchor_inclusion, witnessed_time (docs/ztt.md)",
            }),
            ok: { type: "boolean" },
            reason: string(),
          },
          ["reason"],
        ),
      },
      witnessed_unix_s: { ...integer(1), description: "The witnessed time from the valid cosignatures, when witnessed_time got that far" },
    },
    ["witnessed_unix_s"],
  ),
} as const;
