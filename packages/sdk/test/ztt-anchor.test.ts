/**
 * ZTT bundles anchored in a clockchain: a memory authority with three real witnesses on loopback (in process) makes
 * the anchor FINAL; `verifyZtt` checks the receipt, the inclusion and the witnessed-time bracket offline; each new
 * field tampered is caught by the check that names it; a key used after its window closed (its clock set back into
 * the window) is caught by the witnessed time. The bracket's bounds are checked exactly with test witnesses
 * cosigning at chosen times, and against the inequality model with fast-check.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInProcessWitnesses, type InProcessWitnesses } from "@temporal/witness/testing";
import {
  authorityVerifierKey,
  contextAt,
  createClient,
  createMemoryAuthority,
  createMemorySigner,
  parseWitnesses,
  tileVerifierKey,
  verifyFinality,
  type PublicKeyJwk,
} from "../src/index.js";
import { TICKS_PER_DAY } from "../src/core/units.js";
import { createTestService } from "../src/testing/index.js";
import { DEFAULT_ZTT_SKEW_MS, anchorZtt, createZttSigner, verifyZtt, type AnchoredZttBundle, type ZttCheckName, type ZttVerification } from "../src/ztt/index.js";
import { expectCode, testCosigner } from "./note-helpers.js";
import { WINDOW_CHECKS, cosignedAt, outcome, passing, windowAround } from "./ztt-helpers.js";

const AUTHORITY_NAME = "ztt.anchor.test";
const ZONE = 3;
const DAY_MS = TICKS_PER_DAY;

const DAY = 20_000; // 2024-10-04
const at = (hours: number): number => DAY * DAY_MS + hours * 3_600_000;
const failed = (result: ZttVerification): ZttCheckName[] => result.checks.filter((c) => !c.ok).map((c) => c.name);
const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe("anchored bundles with real witnesses on loopback", { timeout: 30_000 }, () => {
  const signer = createMemorySigner();
  const startMs = Date.now();
  const window = windowAround(startMs, ZONE);
  let directory: string;
  let witnesses: InProcessWitnesses;
  let vkeys: string[];
  let keys: PublicKeyJwk[];
  let authority: ReturnType<typeof createMemoryAuthority>;
  let final: AnchoredZttBundle;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "ztt-anchor-"));
    const jwk = (await signer.load()).verifying.jwk;
    keys = [jwk];
    const authorityVkey = authorityVerifierKey(jwk, AUTHORITY_NAME);
    // Today's tile and yesterday's (the bundle whose clock was set back a day).
    const tiles = [startMs, startMs - DAY_MS].map((ms) => tileVerifierKey(authorityVkey, contextAt(ms, { zone: ZONE }).tile_id));
    witnesses = await startInProcessWitnesses(join(directory, "witnesses"), ["witness.test/z1", "witness.test/z2", "witness.test/z3"], tiles);
    vkeys = witnesses.witnesses.map((w) => w.vkey);
    const endpoints = witnesses.witnesses.map(({ url, vkey }) => ({ url, vkey }));
    authority = createMemoryAuthority({ signer, authorityName: AUTHORITY_NAME, witnessing: { witnesses: endpoints, quorum: 2, intervalMs: 20, requestTimeoutMs: 2_000 } });
    const bundle = await createZttSigner({ window, zone: ZONE, authority: signer }).sign("deploy build 4711");
    final = roundTrip(await anchorZtt(bundle, authority, { quorum: 2, timeoutMs: 10_000 }));
  });

  afterAll(async () => {
    await authority?.close();
    await witnesses?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("a FINAL anchor verifies offline: receipt, inclusion and the witnessed time inside the window", async () => {
    expect(final.anchor.proof.finality).toBe("FINAL");
    expect(final.anchor.receipt).toMatchObject({ scope: "ztt.bundle.v1", tile_id: final.context.tile_id, phi_action_ticks: final.context.phi_ticks });
    const result = await verifyZtt(final, keys, { payload: "deploy build 4711", witnesses: vkeys });
    expect(outcome(result)).toEqual(passing(...WINDOW_CHECKS, "payload_sha256", "anchor_receipt", "anchor_inclusion", "witnessed_time"));
    expect(result.valid).toBe(true);
    // The witnessed time is the 2nd smallest of the valid cosignatures: after the signing, before the check.
    expect(result.witnessed_unix_s).toBeGreaterThanOrEqual(Math.floor(final.context.unix_ms / 1000));
    expect(result.witnessed_unix_s).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(result.witnessed_unix_s).toBe((await verifyFinality(final.anchor.proof, { log: keys, witnesses: vkeys }, 2)).witnessed_unix_s);
    // Without witness keys the verifier checks the anchor but makes no claim about witnessed time.
    const keysOnly = await verifyZtt(final, keys);
    expect(keysOnly.valid).toBe(true);
    expect(keysOnly.checks.map((c) => c.name)).not.toContain("witnessed_time");
  });

  it("catches each tampered anchor field with the check that names it", async () => {
    const hex = (n: number) => n.toString(16).padStart(64, "0");
    const tampers: [string, (b: any) => void, ZttCheckName][] = [
      ["anchor.receipt.action_hash_hex", (b) => (b.anchor.receipt.action_hash_hex = hex(1)), "anchor_receipt"],
      ["anchor.receipt.scope", (b) => (b.anchor.receipt.scope = "ztt.other.v1"), "anchor_receipt"],
      ["anchor.receipt.phi_action_ticks", (b) => (b.anchor.receipt.phi_action_ticks += 1), "anchor_receipt"],
      ["anchor.receipt.issued_unix_ms", (b) => (b.anchor.receipt.issued_unix_ms -= 1), "anchor_receipt"],
      ["anchor.receipt.signature", (b) => (b.anchor.receipt.signature = "0".repeat(128)), "anchor_receipt"],
      ["anchor.proof.receipt_hash", (b) => (b.anchor.proof.receipt_hash = hex(2)), "anchor_inclusion"],
      ["anchor.proof.leaf_index", (b) => (b.anchor.proof.leaf_index += 1), "anchor_inclusion"],
      ["anchor.proof.root_hash", (b) => (b.anchor.proof.root_hash = hex(3)), "anchor_inclusion"],
      ["anchor.proof.inclusion_proof", (b) => b.anchor.proof.inclusion_proof.push(hex(4)), "anchor_inclusion"],
      [
        "anchor.proof.checkpoint.note",
        (b) => (b.anchor.proof.checkpoint.note = b.anchor.proof.checkpoint.note.replace(/(\S)\n$/, (_: string, c: string) => `${c === "A" ? "B" : "A"}\n`)),
        "anchor_inclusion",
      ],
      ["anchor.proof.finality", (b) => (b.anchor.proof.finality = "PROVISIONAL"), "witnessed_time"],
      ["anchor.proof.witnessed.checkpoint.note (cosignatures cut)", (b) => (b.anchor.proof.witnessed.checkpoint.note = b.anchor.proof.checkpoint.note), "witnessed_time"],
      ["anchor.proof.witnessed.checkpoint.tree_size", (b) => (b.anchor.proof.witnessed.checkpoint.tree_size += 1), "witnessed_time"],
      ["anchor.proof.witnessed.consistency_proof", (b) => b.anchor.proof.witnessed.consistency_proof.push(hex(5)), "witnessed_time"],
      ["anchor removed", (b) => delete b.anchor, "witnessed_time"],
      ["payload_sha256 after anchoring", (b) => (b.payload_sha256 = hex(6)), "anchor_receipt"],
    ];
    for (const [field, tamper, name] of tampers) {
      const copy = structuredClone(final);
      tamper(copy);
      const result = await verifyZtt(copy, keys, { witnesses: vkeys });
      expect(result.valid, field).toBe(false);
      expect(failed(result), field).toContain(name);
    }
  });

  it("any anchor field replaced by other JSON is refused, never thrown; arbitrary JSON as a bundle is refused", async () => {
    const informational = new Set(["proof.witnessed.quorum", "proof.witnessed.witnessed_unix_s", "proof.witnessed.checkpoint.cosignatures"]);
    const leaves = (value: unknown, path: string[]): string[][] =>
      typeof value === "object" && value !== null && !informational.has(path.join("."))
        ? Object.entries(value).flatMap(([key, child]) => leaves(child, [...path, key]))
        : informational.has(path.join("."))
          ? []
          : [path];
    const paths = leaves(final.anchor, []);
    expect(paths.length).toBeGreaterThan(20);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue(), async (path, replacement) => {
        const copy = structuredClone(final) as any;
        let parent = copy.anchor;
        for (const key of path.slice(0, -1)) parent = parent[key];
        const last = path.at(-1) as string;
        fc.pre(JSON.stringify(parent[last]) !== JSON.stringify(replacement));
        parent[last] = replacement;
        const result = await verifyZtt(copy, keys, { witnesses: vkeys });
        expect(result.valid, path.join(".")).toBe(false);
      }),
      { numRuns: 150 },
    );
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        expect((await verifyZtt(value as any, keys, { witnesses: vkeys })).valid).toBe(false);
      }),
      { numRuns: 50 },
    );
  });

  it("the proof's witnessed summary (quorum, witnessed_unix_s, cosignatures) is never read: the witnessed time is computed", async () => {
    const copy = structuredClone(final) as any;
    copy.anchor.proof.witnessed.witnessed_unix_s = 1;
    copy.anchor.proof.witnessed.quorum = 1;
    copy.anchor.proof.witnessed.checkpoint.cosignatures = [];
    const result = await verifyZtt(copy, keys, { witnesses: vkeys });
    expect(result.valid).toBe(true);
    expect(result.witnessed_unix_s).toBe((await verifyZtt(final, keys, { witnesses: vkeys })).witnessed_unix_s);
  });

  it("a key used after its window closed, its clock set back into the window, is caught by the receipt's issue time and the witnessed time", async () => {
    // Yesterday's opening of the same window, signed "then" but anchored and witnessed now.
    const late = createZttSigner({ window, zone: ZONE, authority: signer, clock: () => startMs - DAY_MS });
    const anchored = await anchorZtt(await late.sign("backdated"), authority, { quorum: 2, timeoutMs: 10_000 });
    // Without witnesses, the log's signed issue time dates the anchoring: a day after the window closed.
    const keysOnly = await verifyZtt(anchored, keys);
    expect(failed(keysOnly)).toEqual(["anchor_receipt"]);
    expect(keysOnly.checks.find((c) => c.name === "anchor_receipt")?.reason).toMatch(/^the receipt was issued at .* after the window closed at .*\(skew 60000 ms\)$/);
    const result = await verifyZtt(anchored, keys, { witnesses: vkeys });
    expect(failed(result)).toEqual(["anchor_receipt", "witnessed_time"]);
    expect(result.witnessed_unix_s).toBeUndefined();
    // With the anchor stripped, only requireAnchor tells.
    const { anchor: _anchor, ...stripped } = anchored;
    expect((await verifyZtt(stripped, keys)).valid).toBe(true);
    expect(failed(await verifyZtt(stripped, keys, { requireAnchor: true }))).toEqual(["anchor_receipt"]);
  });

  it("another bundle's FINAL anchor fails anchor_receipt and witnessed_time, with no witnessed time reported", async () => {
    const other = await createZttSigner({ window, zone: ZONE, authority: signer }).sign("another build");
    const result = await verifyZtt({ ...other, anchor: final.anchor }, keys, { witnesses: vkeys });
    expect(failed(result)).toEqual(["anchor_receipt", "witnessed_time"]);
    expect(result.checks.at(-1)?.reason).toMatch(/^the anchor is not this bundle's/);
    expect(result.witnessed_unix_s).toBeUndefined();
  });

  it("the default quorum is a majority of distinct witness keys: a key listed three times is one witness", async () => {
    // Two of the witnesses that did cosign (the quorum was 2 of 3: which two varies from run to run).
    const cosigners = final.anchor.proof.witnessed?.checkpoint.cosignatures.map((c) => c.witness) ?? [];
    const [a, b] = vkeys.filter((vkey) => cosigners.includes(vkey.slice(0, vkey.indexOf("+")))) as [string, string];
    // Two distinct keys: k = 2, which both cosignatures meet (counted per listing, k would be 3 and never reachable).
    const result = await verifyZtt(final, keys, { witnesses: [a, a, a, b] });
    expect(result.valid).toBe(true);
    await expectCode(() => verifyZtt(final, keys, { witnesses: [a, a, a, b], quorum: 3 }), "INVALID_ARGUMENT", "1..2 (the distinct witness keys given)");
    // Parsed once beforehand (parseWitnesses), the same witnesses give the same verdict and the same quorum bound.
    const parsed = await parseWitnesses([a, a, a, b]);
    expect(await verifyZtt(final, keys, { witnesses: parsed })).toStrictEqual(result);
    await expectCode(() => verifyZtt(final, keys, { witnesses: parsed, quorum: 3 }), "INVALID_ARGUMENT", "1..2 (the distinct witness keys given)");
  });

  it("a PROVISIONAL anchor verifies without witnesses; asked for witnessed time, it fails naming why", async () => {
    const bundle = await createZttSigner({ window, zone: ZONE, authority: signer }).sign("provisional");
    const anchored = await anchorZtt(bundle, authority);
    expect(anchored.anchor.proof.finality).toBe("PROVISIONAL");
    expect((await verifyZtt(anchored, keys)).valid).toBe(true);
    const result = await verifyZtt(anchored, keys, { witnesses: vkeys });
    expect(failed(result)).toEqual(["witnessed_time"]);
    expect(result.checks.at(-1)?.reason).toContain("not FINAL");
  });
});

describe("the witnessed-time bracket: start <= t <= W * 1000 + 999 + skew, W * 1000 <= end + skew", () => {
  // [90, 120] in Z1 is UTC 04:00 to 06:00 of DAY.
  const START_S = at(4) / 1000;
  const END_S = at(6) / 1000;
  const SKEW_S = DEFAULT_ZTT_SKEW_MS / 1000;
  const cosigners = [testCosigner("witness.test/b1"), testCosigner("witness.test/b2"), testCosigner("witness.test/b3")];
  const vkeys = cosigners.map((c) => c.vkey);

  async function anchoredAt(signedMs: number) {
    const signer = createMemorySigner();
    const authority = createMemoryAuthority({ signer, clock: () => signedMs });
    try {
      const bundle = await createZttSigner({ window: [90, 120], zone: 1, authority: signer, clock: () => signedMs }).sign("bracket");
      return { bundle: await anchorZtt(bundle, authority), keys: [(await signer.load()).verifying.jwk] };
    } finally {
      await authority.close();
    }
  }

  it("accepts the bounds exactly and refuses one second past them", { timeout: 20_000 }, async () => {
    const signedMs = at(5.5) + 250;
    const signedS = Math.floor(signedMs / 1000);
    const { bundle, keys } = await anchoredAt(signedMs);
    const verdict = async (times: number[], options: { quorum?: number; skewMs?: number } = {}) => {
      const result = await verifyZtt(await cosignedAt(bundle, cosigners, times), keys, { witnesses: vkeys, ...options });
      return result.checks.find((c) => c.name === "witnessed_time")?.ok;
    };
    // W is the 2nd smallest (k = 2, a majority of 3); the third witness's time does not matter.
    expect(await verdict([signedS, signedS, 1])).toBe(true);
    expect(await verdict([END_S + SKEW_S, END_S + SKEW_S, END_S + 9_999])).toBe(true);
    expect(await verdict([END_S + SKEW_S + 1, END_S + SKEW_S + 1, signedS])).toBe(false);
    // The signing may be at most the skew (plus the second W truncates) after W.
    expect(await verdict([signedS - SKEW_S, signedS - SKEW_S, signedS])).toBe(true);
    expect(await verdict([signedS - SKEW_S - 1, signedS - SKEW_S - 1, signedS])).toBe(false);
    // skewMs changes both bounds; quorum picks the k-th smallest.
    expect(await verdict([END_S + 1, END_S + 1, END_S], { skewMs: 0 })).toBe(false);
    expect(await verdict([END_S, END_S, END_S], { skewMs: 0 })).toBe(true);
    expect(await verdict([signedS, signedS, END_S + SKEW_S + 1], { quorum: 3 })).toBe(false);
    expect(await verdict([signedS, signedS, END_S + SKEW_S + 1], { quorum: 2 })).toBe(true);
    // A cosignature by a witness the verifier does not trust does not count toward the quorum.
    const stranger = await verifyZtt(await cosignedAt(bundle, [cosigners[0]!, testCosigner("witness.test/stranger")], [signedS, signedS]), keys, { witnesses: vkeys });
    expect(stranger.checks.at(-1)).toMatchObject({ name: "witnessed_time", ok: false, reason: expect.stringContaining("1 of the 3 trusted witnesses") });
  });

  it("a signing context moved before the window opened is refused by the context, the receipt and so the witnessed time", { timeout: 20_000 }, async () => {
    const { bundle, keys } = await anchoredAt(at(5));
    const backdated = { ...bundle, context: contextAt(at(4) - 1_000, { zone: 1 }) };
    const result = await verifyZtt(await cosignedAt(backdated, cosigners, [START_S, START_S, START_S]), keys, { witnesses: vkeys });
    expect(failed(result)).toEqual(["ephemeral_signature", "signing_context", "anchor_receipt", "witnessed_time"]);
    expect(result.checks.at(-1)?.reason).toMatch(/^the anchor is not this bundle's/);
  });

  it("agrees with the inequality model for random signing and witnessed times", { timeout: 30_000 }, async () => {
    const signer = createMemorySigner();
    let nowMs = at(4);
    const ztt = createZttSigner({ window: [90, 120], zone: 1, authority: signer, clock: () => nowMs });
    const authority = createMemoryAuthority({ signer, clock: () => nowMs });
    const keys = [(await signer.load()).verifying.jwk];
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: at(4), max: at(6) }),
          fc.integer({ min: START_S - 2 * SKEW_S, max: END_S + 2 * SKEW_S }),
          fc.integer({ min: 0, max: 2 * DEFAULT_ZTT_SKEW_MS }),
          async (signedMs, witnessedS, skewMs) => {
            nowMs = signedMs;
            const bundle = await anchorZtt(await ztt.sign("model"), authority);
            const result = await verifyZtt(await cosignedAt(bundle, cosigners, [witnessedS, witnessedS, witnessedS]), keys, { witnesses: vkeys, skewMs });
            const model = at(4) <= signedMs && signedMs <= witnessedS * 1000 + 999 + skewMs && witnessedS * 1000 <= at(6) + skewMs;
            expect(result.valid).toBe(model);
          },
        ),
        { numRuns: 60 },
      );
    } finally {
      await authority.close();
    }
  });

  it("refuses bad options with INVALID_ARGUMENT", async () => {
    const { bundle, keys } = await anchoredAt(at(5));
    await expectCode(() => verifyZtt(bundle, keys, { witnesses: [] }), "INVALID_ARGUMENT", "witnesses must name at least one");
    await expectCode(async () => verifyZtt(bundle, keys, { witnesses: await parseWitnesses([]) }), "INVALID_ARGUMENT", "witnesses must name at least one");
    await expectCode(() => verifyZtt(bundle, keys, { witnesses: vkeys, quorum: 4 }), "INVALID_ARGUMENT", "quorum must be a whole number in 1..3");
    await expectCode(() => verifyZtt(bundle, keys, { quorum: 1 }), "INVALID_ARGUMENT", "quorum needs witnesses");
    await expectCode(() => verifyZtt(bundle, keys, { skewMs: -1 }), "INVALID_ARGUMENT", "skewMs");
    // The log's own vkey is a signed-note key (type 0x01), not a witness's: refused even for a bundle with no cosignatures.
    const logVkey = authorityVerifierKey(keys[0]!, "log.example");
    await expectCode(() => verifyZtt(bundle, keys, { witnesses: [logVkey] }), "INVALID_COSIGNATURE", "not 0x04");
    await expectCode(() => verifyZtt(bundle, keys, { witnesses: ["not a vkey"] }), "INVALID_NOTE_KEY");
    const signer = createMemorySigner();
    await expectCode(
      () => createZttSigner({ window: [90, 120], zone: 1, authority: signer, anchor: { authority: signer as never } }),
      "INVALID_ARGUMENT",
      "anchor.authority must be an Authority",
    );
    const authority = createMemoryAuthority();
    await expectCode(() => createZttSigner({ window: [90, 120], zone: 1, authority: signer, anchor: { authority, quorum: 0 } }), "INVALID_ARGUMENT", "quorum must be a positive integer");
    await authority.close();
  });
});

describe("anchored through the service's HTTP client", () => {
  it("anchors through the HTTP client of a service (its request pipeline in process) and verifies with the keys it publishes", async () => {
    const signedMs = at(5.5);
    const service = createTestService({ now: signedMs });
    try {
      const client = createClient({ baseUrl: service.baseUrl, fetch: service.fetch, apiKey: service.apiKeys.enterprise });
      // The certificate is signed by a key of the signer's own; the receipt and the checkpoint by the service's.
      const certifier = createMemorySigner();
      const bundle = await createZttSigner({ window: [90, 120], zone: 1, authority: certifier, clock: () => signedMs }).sign("remote");
      const anchored = roundTrip(await anchorZtt(bundle, client));
      const certifiers = [(await certifier.load()).verifying.jwk];
      const log = await client.getKeys();
      // The service's GET keys reply, as published, is a key set verifyZtt takes as it is; it is the log, not the certifier.
      expect(failed(await verifyZtt(anchored, log))).toEqual(["certificate_signature"]);
      const result = await verifyZtt(anchored, certifiers, { log });
      expect(outcome(result)).toEqual(passing(...WINDOW_CHECKS, "anchor_receipt", "anchor_inclusion"));
      // Without the log's keys the certifier's own keys do not make the anchor the log's.
      expect(failed(await verifyZtt(anchored, certifiers))).toEqual(["anchor_receipt", "anchor_inclusion"]);
    } finally {
      await service.close();
    }
  });
});
