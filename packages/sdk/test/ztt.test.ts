import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMemorySigner } from "../src/authority/memory-signer.js";
import { allow, contextAt } from "../src/core/index.js";
import { TICKS_PER_DAY } from "../src/core/units.js";
import { certifiesWindow } from "../src/ztt/certificate.js";
import { createZttSigner, verifyZtt, windowInterval, ZttWindowClosedError, type ZttBundle } from "../src/ztt/index.js";

const DAY = 20_000; // 2024-10-04
const at = (hours: number): number => DAY * TICKS_PER_DAY + hours * 3_600_000;

async function setup(window: readonly [number, number] = [90, 120], zone = 1) {
  let nowMs = at(5.5); // Z1 local 7:30 = 112.5 deg: inside [90, 120] = UTC 04:00-06:00
  const authority = createMemorySigner();
  const key = await authority.load();
  const signer = createZttSigner({ window, zone, authority, clock: () => nowMs });
  return { signer, keys: [key.verifying.jwk], setClock: (ms: number) => (nowMs = ms) };
}

describe("ZTT signer", () => {
  it("signs inside the window and verifies with only the public keys", async () => {
    const { signer, keys } = await setup();
    const bundle = await signer.sign("hello");
    const result = await verifyZtt(JSON.parse(JSON.stringify(bundle)) as ZttBundle, keys, { payload: "hello" });
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(bundle.certificate).toMatchObject({ swt_zone: 1, day_index: DAY, start_unix_ms: at(4), end_unix_ms: at(6) });
  });

  it("refuses outside the window with ZTT_WINDOW_CLOSED and the next opening", async () => {
    const { signer, setClock } = await setup();
    setClock(at(8));
    await expect(signer.sign("x")).rejects.toMatchObject({ code: "ZTT_WINDOW_CLOSED", next_open_unix_ms: at(28) });
  });

  it("refuses with ZTT_WINDOW_CLOSED when its opening ends while the key is certified: the signing time counts, not the asking", async () => {
    // The clock moves on to `signedMs` while the authority loads its key to certify the ephemeral one.
    const signerWhoseClockMoves = (window: readonly [number, number], zone: number, askedMs: number, signedMs: number) => {
      let nowMs = askedMs;
      const authority = createMemorySigner();
      const load = authority.load.bind(authority);
      authority.load = async () => {
        const loaded = await load();
        nowMs = signedMs;
        return loaded;
      };
      return createZttSigner({ window, zone, authority, clock: () => nowMs });
    };
    const error = await signerWhoseClockMoves([90, 120], 1, at(5.5), at(8))
      .sign("x")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZttWindowClosedError);
    expect(error).toMatchObject({ code: "ZTT_WINDOW_CLOSED", next_open_unix_ms: at(28) });
    expect((error as Error).message).toBe(`window [90, 120] is closed at ${new Date(at(8)).toISOString()}; it opens next at ${new Date(at(28)).toISOString()}`);
    // The whole cycle: the next day's opening is another certificate's, so signing in it with this key is refused too;
    // that opening has begun already, so the next one named is the signing time itself, and the message says which
    // opening ended and which began (not "closed at T; it opens next at T").
    const wholeCycle = await signerWhoseClockMoves([0, 360], 0, at(23.9), at(24.1))
      .sign("x")
      .catch((e: unknown) => e);
    expect(wholeCycle).toBeInstanceOf(ZttWindowClosedError);
    expect(wholeCycle).toMatchObject({ code: "ZTT_WINDOW_CLOSED", next_open_unix_ms: at(24.1) });
    expect((wholeCycle as Error).message).toBe(
      `the opening of window [0, 360] that the key was certified for ended at 2024-10-04T23:59:59.999Z before the signature was made, and the opening open now began at 2024-10-05T00:00:00.000Z: sign again`,
    );
    // So for any window when certifying outlasts the gap to its next opening.
    await expect(signerWhoseClockMoves([90, 120], 1, at(5.5), at(28.5)).sign("x")).rejects.toThrow(
      "the opening of window [90, 120] that the key was certified for ended at 2024-10-04T06:00:00.000Z before the signature was made, and the opening open now began at 2024-10-05T04:00:00.000Z: sign again",
    );
  });

  it("drops the ephemeral key when the window closes, and a new opening gets a new key", async () => {
    const { signer, setClock } = await setup();
    const first = await signer.sign("a");
    expect(signer.holdsKey()).toBe(true);
    setClock(at(6) + 1);
    expect(signer.holdsKey()).toBe(false);
    setClock(at(28));
    const second = await signer.sign("b");
    expect(second.key_id).not.toBe(first.key_id);
    expect(second.certificate.day_index).toBe(DAY + 1);
    signer.close();
    expect(signer.holdsKey()).toBe(false);
  });

  it("catches each tampered field with the check that names it", async () => {
    const { signer, keys } = await setup();
    const bundle = await signer.sign("hello");
    const tampers: [string, (b: any) => void, string][] = [
      ["certificate.day_index", (b) => (b.certificate.day_index += 1), "certificate_signature"],
      ["certificate.start_unix_ms", (b) => (b.certificate.start_unix_ms -= 1), "certificate_signature"],
      ["certificate.end_unix_ms", (b) => (b.certificate.end_unix_ms += 3_600_000), "certificate_signature"],
      ["certificate.window_deg", (b) => (b.certificate.window_deg = [0, 360]), "certificate_signature"],
      ["certificate.swt_zone", (b) => (b.certificate.swt_zone = 2), "certificate_signature"],
      ["certificate.ephemeral_x", (b) => (b.certificate.ephemeral_x = keys[0]!.x), "certificate_signature"],
      ["certificate.signature", (b) => (b.certificate.signature = "0".repeat(128)), "certificate_signature"],
      ["payload_sha256", (b) => (b.payload_sha256 = "0".repeat(64)), "ephemeral_signature"],
      ["key_id", (b) => (b.key_id = "0".repeat(16)), "ephemeral_signature"],
      ["signature", (b) => (b.signature = "0".repeat(128)), "ephemeral_signature"],
      ["context (outside the window)", (b) => (b.context = contextAt(at(8), { zone: 1 })), "signing_context"],
      ["context.phase_deg", (b) => (b.context.phase_deg = 100), "signing_context"],
    ];
    for (const [field, tamper, checkName] of tampers) {
      const copy = structuredClone(bundle);
      tamper(copy);
      const result = await verifyZtt(copy, keys);
      expect(result.valid, field).toBe(false);
      expect(
        result.checks.find((c) => c.name === checkName),
        field,
      ).toMatchObject({ ok: false });
    }
    const wrongPayload = await verifyZtt(bundle, keys, { payload: "other" });
    expect(wrongPayload.checks.find((c) => c.name === "payload_sha256")).toMatchObject({ ok: false });
  });

  it("hostile JSON (a lone surrogate, Infinity, 20 000 nested arrays) fails its checks and never throws", async () => {
    const { signer, keys } = await setup();
    const text = JSON.stringify(await signer.sign("hello"));
    const hostile: [string, string][] = [
      ["payload_sha256 a lone surrogate", text.replace(/"payload_sha256":"[0-9a-f]+"/, '"payload_sha256":"\\ud800"')],
      ["an extra field parsed from 1e400", `${text.slice(0, -1)},"extra":1e400}`],
      ["an extra field 20 000 arrays deep", `${text.slice(0, -1)},"extra":${"[".repeat(20_000)}${"]".repeat(20_000)}}`],
    ];
    for (const [what, json] of hostile) {
      const bundle = JSON.parse(json) as ZttBundle;
      const result = await verifyZtt(bundle, keys, { payload: "hello" });
      expect(result.valid, what).toBe(false);
      expect(
        result.checks.find((c) => c.name === "ephemeral_signature"),
        what,
      ).toMatchObject({ ok: false, reason: expect.any(String) });
    }
  });

  it("refuses by name an unknown field, another ztt_version and an anchor that is not { receipt, proof }", async () => {
    const { signer, keys } = await setup();
    const bundle = await signer.sign("hello");
    const reasonOf = async (value: unknown, name: string) => (await verifyZtt(value as ZttBundle, keys)).checks.find((c) => c.name === name);
    expect(await reasonOf({ ...bundle, extra: 1 }, "ephemeral_signature")).toMatchObject({ ok: false, reason: expect.stringContaining("unknown bundle field(s) extra") });
    expect(await reasonOf({ ...bundle, ztt_version: 2 }, "ephemeral_signature")).toMatchObject({ ok: false, reason: expect.stringContaining("ztt_version is 2, not 1") });
    for (const anchor of [null, [], { receipt: {} }, { receipt: {}, proof: {}, more: 1 }]) {
      const result = await verifyZtt({ ...bundle, anchor } as never, keys);
      expect(result.valid).toBe(false);
      expect(result.checks.find((c) => c.name === "anchor_receipt")).toMatchObject({ ok: false, reason: expect.stringContaining("anchor must be an object with exactly receipt and proof") });
    }
  });

  it("refuses to sign text with a lone surrogate (UTF-8 would make it U+FFFD, like other text), and verifies no such payload", async () => {
    const { signer, keys } = await setup();
    for (const text of ["\ud800", "a\udc00b", "\u{1F600}\ud83d"]) {
      await expect(signer.sign(text)).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/lone surrogate at index \d+/) });
    }
    const replaced = await signer.sign("\ufffd");
    expect((await verifyZtt(replaced, keys, { payload: "\ufffd" })).valid).toBe(true);
    const lone = await verifyZtt(replaced, keys, { payload: "\ud800" });
    expect(lone.checks.find((c) => c.name === "payload_sha256")).toMatchObject({ ok: false, reason: expect.stringContaining("lone surrogate at index 0") });
    // A pair is one code point: signed and verified as the text it is.
    expect((await verifyZtt(await signer.sign("\u{1F600}"), keys, { payload: "\u{1F600}" })).valid).toBe(true);
  });

  it("a missing or malformed certificate or context fails each check that reads it in words, never a JavaScript error's", async () => {
    const { signer, keys } = await setup();
    const bundle = await signer.sign("hello");
    for (const broken of [{ ...bundle, certificate: null, context: null }, { ...bundle, certificate: {}, context: [] }, { ztt_version: 1 }]) {
      const { valid, checks } = await verifyZtt(broken as never, keys);
      expect(valid).toBe(false);
      const reasons = Object.fromEntries(checks.map((c) => [c.name, c.reason]));
      expect(reasons.certificate_signature).toMatch(/^malformed certificate: /);
      expect(reasons.certificate_interval).toBe("the certificate is malformed: see certificate_signature");
      expect(reasons.signing_context).toMatch(/^(the context is (null|\[\]), not an object|the bundle has no context)$/);
      expect(JSON.stringify(checks)).not.toMatch(/Cannot read|undefined \(reading/);
    }
    // A context that is an object, with a malformed certificate.
    const withContext = await verifyZtt({ ...bundle, certificate: null } as never, keys);
    expect(withContext.checks.find((c) => c.name === "signing_context")?.reason).toBe("the certificate is malformed: see certificate_signature");
  });

  it("checks the certificate against publicKeys only, never against the log's keys", async () => {
    const { signer, keys } = await setup();
    const bundle = await signer.sign("hello");
    const stranger = [(await createMemorySigner().load()).verifying.jwk];
    expect((await verifyZtt(bundle, keys, { log: stranger })).valid).toBe(true);
    const asLog = await verifyZtt(bundle, stranger, { log: keys });
    expect(asLog.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(["certificate_signature"]);
  });

  it("an expected window matches the certificate's degrees as written: [330, 0] is not a certificate for [330, 360]", async () => {
    const { signer, keys, setClock } = await setup([330, 360], 1);
    setClock(at(21)); // Z1 local 23:00 = 345 deg
    const bundle = await signer.sign("hello");
    const intervalFor = async (window: readonly [number, number]) => (await verifyZtt(bundle, keys, { window, zone: 1 })).checks.find((c) => c.name === "certificate_interval");
    expect(await intervalFor([330, 360])).toMatchObject({ ok: true });
    expect(await intervalFor([330, 0])).toMatchObject({ ok: false, reason: "the certificate is for window [330, 360], not the expected [330, 0]" });
  });

  it("certifiesWindow: the same two degrees as written, in order; 0 and 360 are not the same end", () => {
    expect(certifiesWindow({ window_deg: [330, 0] }, [330, 360])).toBe(false);
    expect(certifiesWindow({ window_deg: [0, 30] }, [360, 30])).toBe(false);
    expect(certifiesWindow({ window_deg: [330, 30] }, [30, 330])).toBe(false);
    expect(certifiesWindow({ window_deg: [330, 30] }, [330, 30])).toBe(true);
  });

  it("requireAnchor: a bundle without an anchor fails anchor_receipt; bad options are INVALID_ARGUMENT", async () => {
    const { signer, keys } = await setup();
    const bundle = await signer.sign("hello");
    const result = await verifyZtt(bundle, keys, { requireAnchor: true });
    expect(result.valid).toBe(false);
    expect(result.checks.at(-1)).toMatchObject({ name: "anchor_receipt", ok: false, reason: expect.stringContaining("no anchor") });
    await expect(verifyZtt(bundle, keys, { requireAnchor: "yes" as never })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(verifyZtt(bundle, keys, { log: "key" as never })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});

describe("windowInterval", () => {
  it("maps wrapping windows and day boundaries in all 12 zones", () => {
    for (let zone = 0; zone < 12; zone++) {
      const wrap = windowInterval([330, 30], zone, DAY); // 22:00 -> 02:00 local
      expect(wrap.end_unix_ms - wrap.start_unix_ms).toBe(4 * 3_600_000);
      expect(Math.floor(wrap.start_unix_ms / TICKS_PER_DAY)).toBe(DAY);
      for (const ms of [wrap.start_unix_ms, wrap.end_unix_ms, (wrap.start_unix_ms + wrap.end_unix_ms) / 2]) expect(allow(contextAt(ms, { zone }), [330, 30])).toBe(true);
      for (const ms of [wrap.start_unix_ms - 1, wrap.end_unix_ms + 1]) expect(allow(contextAt(ms, { zone }), [330, 30])).toBe(false);
      const whole = windowInterval([0, 360], zone, DAY);
      expect(whole.end_unix_ms - whole.start_unix_ms).toBe(TICKS_PER_DAY - 1);
    }
  });

  it("agrees with a brute-force minute scan of allow (property)", () => {
    const quarter = fc.integer({ min: 0, max: 1440 }).map((q) => q / 4); // minute-aligned degrees
    fc.assert(
      fc.property(quarter, quarter, fc.integer({ min: 0, max: 11 }), fc.integer({ min: -1000, max: 1000 }), (a, b, zone, day) => {
        fc.pre(!(a === 0 && b === 360));
        const { start_unix_ms, end_unix_ms } = windowInterval([a, b], zone, day);
        // Brute force: local minute-of-day of each UTC minute of the day, compared with the bounds in minutes.
        const from = (a * 4) % 1440;
        const to = (b * 4) % 1440;
        const inside = (m: number) => (from <= to ? m >= from && m <= to : m >= from || m <= to);
        const localMinute = (utcMinute: number) => (((utcMinute + zone * 120) % 1440) + 1440) % 1440;
        let startMinute = -1;
        for (let m = 0; m < 1440 && startMinute < 0; m++) if (inside(localMinute(m)) && !inside(localMinute(m - 1))) startMinute = m;
        if (startMinute < 0) return; // open all day except nothing: covered by [0, 360]
        let endMinute = startMinute;
        while (inside(localMinute(endMinute + 1)) && endMinute < startMinute + 1440) endMinute++;
        expect(start_unix_ms).toBe(day * TICKS_PER_DAY + startMinute * 60_000);
        expect(end_unix_ms).toBe(day * TICKS_PER_DAY + endMinute * 60_000);
      }),
      { numRuns: 300 },
    );
  });
});
