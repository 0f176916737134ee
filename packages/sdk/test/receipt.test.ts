import { generateKeyPairSync } from "node:crypto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  TsaeRequestError,
  assertTsaeRequest,
  contextAt,
  createTsaeRequest,
  importVerifyingKey,
  receiptHash,
  sha256Hex,
  verifyReceipt,
  type PublicKeyJwk,
  type Receipt,
  type TsaeRequest,
} from "../src/index.js";
import { createLocalAuthority, type LocalAuthority } from "../src/node/index.js";
import { tempDir } from "./helpers.js";

const ctx = contextAt(Date.UTC(2025, 2, 14, 9, 26, 53, 589), { zone: 4 });
const valid: TsaeRequest = createTsaeRequest(ctx, { scope: "payments.refund.v2", action_hash_hex: sha256Hex("refund #42") });

const BAD_VALUES: Record<keyof TsaeRequest, unknown[]> = {
  scope: ["Payments.refund.v1", "payments.refund", "payments.refund.v01", "payments..v1", ".a.v1", "a.b.c.v1", "a.b.v", "", 7, null, `${"a".repeat(126)}.b.v1`],
  day_index: [-1, 1.5, "20000", 100_000_000, null],
  phi_action_ticks: [-1, 86_400_000, 0.5, "0"],
  swt_zone: [12, -1, "Z4", 4.5],
  tile_id: ["1", -1, 2.5, null],
  action_hash_hex: ["ABC", sha256Hex("x").toUpperCase(), sha256Hex("x").slice(1), `${sha256Hex("x")}0`, 0],
};
const FIELDS = Object.keys(BAD_VALUES) as (keyof TsaeRequest)[];

function rejection(value: unknown): TsaeRequestError {
  try {
    assertTsaeRequest(value);
  } catch (error) {
    if (error instanceof TsaeRequestError) return error;
    throw error;
  }
  throw new Error("the request was accepted");
}

describe("TSAE request validation", () => {
  it("accepts the request built from a context", () => {
    expect(valid).toEqual({
      scope: "payments.refund.v2",
      day_index: ctx.day_index,
      phi_action_ticks: ctx.phi_ticks,
      swt_zone: 4,
      tile_id: ctx.day_index * 12 + 4,
      action_hash_hex: sha256Hex("refund #42"),
    });
    expect(() => assertTsaeRequest({ ...valid, scope: "a_b-c.d_-9.v0" })).not.toThrow();
  });

  it("names every bad field and only those", () => {
    const corruption = fc.subarray(FIELDS, { minLength: 1 }).chain((fields) => fc.tuple(...fields.map((field) => fc.tuple(fc.constant(field), fc.constantFrom(...BAD_VALUES[field])))));
    fc.assert(
      fc.property(corruption, (pairs) => {
        const request = { ...valid, ...Object.fromEntries(pairs) };
        const error = rejection(request);
        expect(error.code).toBe("TSAE_REQUEST_INVALID");
        const bad = pairs.map(([field]) => field);
        expect(new Set(error.fields)).toEqual(new Set(bad));
        for (const field of bad) expect(error.message).toContain(field);
      }),
      { numRuns: 300 },
    );
  });

  it("reports a tile_id inconsistent with day_index and swt_zone, next to other bad fields", () => {
    const error = rejection({ ...valid, tile_id: valid.tile_id + 1, scope: "bad" });
    expect(error.fields.sort()).toEqual(["scope", "tile_id"]);
    expect(error.message).toContain(`tile_id ${valid.tile_id + 1} is not day_index * 12 + swt_zone = ${valid.tile_id}`);
  });

  it("reports missing and unknown fields, and non-objects", () => {
    const { scope: _scope, ...missing } = valid;
    expect(rejection(missing).issues).toEqual([{ field: "scope", value: undefined, reason: "is missing" }]);
    // A missing field has no value to show.
    expect(rejection(missing).message).toBe("invalid TSAE request: scope is missing");
    expect(rejection({ ...missing, extra: 1 }).message).toBe("invalid TSAE request: scope is missing; extra 1 is not a known field");
    expect(rejection({ ...valid, extra: 1 }).fields).toEqual(["extra"]);
    expect(rejection(null).fields).toEqual(["(record)"]);
    expect(rejection([valid]).fields).toEqual(["(record)"]);
  });
});

describe("receipts", () => {
  let authority: LocalAuthority;
  let receipt: Receipt;
  let jwk: PublicKeyJwk;

  beforeAll(async () => {
    authority = createLocalAuthority({ home: await tempDir(), clock: () => Date.UTC(2025, 2, 14, 9, 27) });
    receipt = await authority.issueReceipt(valid);
    jwk = Object.values(await authority.publicKeys())[0] as PublicKeyJwk;
    return () => authority.close();
  });

  it("carry the request plus version, issue time, key id and signature", () => {
    expect(receipt).toEqual({
      ...valid,
      receipt_version: 1,
      issued_unix_ms: Date.UTC(2025, 2, 14, 9, 27),
      key_id: jwk.kid,
      signature: expect.stringMatching(/^[0-9a-f]{128}$/),
    });
    expect(Object.isFrozen(receipt)).toBe(true);
    expect(receiptHash(receipt)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("verify with the JWK, the raw key, an imported key, and after a JSON round trip", async () => {
    const raw = new Uint8Array(Buffer.from(jwk.x, "base64url"));
    expect(await verifyReceipt(receipt, jwk)).toBe(true);
    expect(await verifyReceipt(receipt, raw)).toBe(true);
    expect(await verifyReceipt(receipt, await importVerifyingKey(jwk))).toBe(true);
    expect(await verifyReceipt(JSON.parse(JSON.stringify(receipt)) as Receipt, jwk)).toBe(true);
  });

  it("fail verification with another key", async () => {
    const { x } = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" });
    expect(await verifyReceipt(receipt, { kty: "OKP", crv: "Ed25519", x } as PublicKeyJwk)).toBe(false);
  });

  it("fail verification after any field changes", async () => {
    const key = await importVerifyingKey(jwk);
    const changed = (value: unknown): fc.Arbitrary<unknown> =>
      typeof value === "number"
        ? fc.oneof(
            fc.integer({ min: 1, max: 1000 }).map((d) => value + d),
            fc.integer({ min: 0, max: 11 }).filter((v) => v !== value),
          )
        : fc
            .tuple(fc.nat({ max: (value as string).length - 1 }), fc.constantFrom(..."0123456789abcdef"))
            .map(([i, c]) => (value as string).slice(0, i) + c + (value as string).slice(i + 1))
            .filter((v) => v !== value);
    const fields = Object.keys(receipt) as (keyof Receipt)[];
    const mutation = fc.constantFrom(...fields).chain((field) => fc.tuple(fc.constant(field), changed(receipt[field])));
    await fc.assert(
      fc.asyncProperty(mutation, async ([field, value]) => {
        expect(await verifyReceipt({ ...receipt, [field]: value }, key)).toBe(false);
      }),
      { numRuns: 200 },
    );
    expect(await verifyReceipt({ ...receipt, extra: 1 } as Receipt, key)).toBe(false);
  });

  it("reject malformed public keys with a TypeError", async () => {
    await expect(verifyReceipt(receipt, { kty: "OKP", crv: "X25519", x: jwk.x } as unknown as PublicKeyJwk)).rejects.toMatchObject({
      code: "INVALID_PUBLIC_KEY",
    });
    await expect(verifyReceipt(receipt, new Uint8Array(31))).rejects.toBeInstanceOf(TypeError);
    await expect(verifyReceipt(receipt, { ...jwk, kid: "0000000000000000" })).rejects.toThrow(/does not match/);
  });
});
