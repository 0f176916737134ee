/**
 * An authority certifying an ephemeral key generated elsewhere (docs/ztt.md, "Remote signing"): which keys it will
 * certify, and only for an opening open by its own clock. The endpoint and the remote signer are tested against the
 * real service in packages/server/test/client.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMemoryAuthority } from "../src/authority/index.js";
import { TICKS_PER_DAY } from "../src/core/units.js";
import { zttSignerCertifiedBy } from "../src/ztt/signer.js";
import { verifyZtt, windowInterval } from "../src/ztt/index.js";
import { ephemeralKeyProblem } from "../src/ztt/ephemeral-key.js";
import { ed25519KeyPair } from "./helpers.js";

const P = 2n ** 255n - 19n;
const hex = (text: string) => new Uint8Array(Buffer.from(text, "hex"));
const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

/** The eight points of small order, as libsodium's blocklist writes them: the identity, one of order 2, two of order 4, four of order 8. */
const SMALL_ORDER = [
  "0100000000000000000000000000000000000000000000000000000000000000",
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  "0000000000000000000000000000000000000000000000000000000000000000",
  "0000000000000000000000000000000000000000000000000000000000000080",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
];

async function generatedPublicKey(): Promise<Uint8Array> {
  const pair = await ed25519KeyPair(false);
  return new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
}

function power(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  for (let b = base % P, e = exponent; e > 0n; e >>= 1n, b = (b * b) % P) if (e & 1n) result = (result * b) % P;
  return result;
}

/** Euler's criterion on x^2 = (y^2 - 1) / (d y^2 + 1): whether some x exists, computed another way than the decoder's square root. */
function hasX(y: bigint): boolean {
  const d = (((-121665n * power(121666n, P - 2n)) % P) + P) % P;
  const x2 = ((((y * y - 1n) % P) + P) % P) * power((d * y * y + 1n) % P, P - 2n);
  return x2 % P === 0n || power(x2 % P, (P - 1n) / 2n) === 1n;
}

describe("which ephemeral keys an authority certifies", () => {
  it("every key WebCrypto generates", async () => {
    for (let i = 0; i < 32; i++) expect(ephemeralKeyProblem(await generatedPublicKey())).toBeUndefined();
  });

  it("no point of small order, whichever sign bit it is written with, and no encoding of y >= p", () => {
    for (const point of SMALL_ORDER) expect(ephemeralKeyProblem(hex(point)), point).toMatch(/small order|not the canonical/);
    // y = p and y = p + 1 are non-canonical spellings of 0 and 1.
    expect(ephemeralKeyProblem(hex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"))).toMatch(/not the canonical/);
    expect(ephemeralKeyProblem(hex("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"))).toMatch(/not the canonical/);
    expect(ephemeralKeyProblem(new Uint8Array(31))).toBe("is 31 bytes, not 32");
  });

  it("refuses the rest of libsodium's blocklist: x = 0 written with sign bit 1, and y = p - 1, p, p + 1 with either sign bit", () => {
    // y = 1 and y = p - 1 have x = 0: sign bit 1 is no encoding of them (RFC 8032 5.1.3, step 4).
    for (const encoding of ["0100000000000000000000000000000000000000000000000000000000000080", "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"]) {
      expect(ephemeralKeyProblem(hex(encoding)), encoding).toBe("is not the canonical encoding of a point on Ed25519");
    }
    for (const encoding of ["edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"]) {
      expect(ephemeralKeyProblem(hex(encoding)), encoding).toBe("is not the canonical encoding of a point on Ed25519");
    }
  });

  it("with sign bit 1 too, decodes exactly the y for which the curve has an x other than 0, fast-check", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (raw) => {
        const bytes = Uint8Array.from(raw);
        bytes[31] = (bytes[31] as number) | 0x80;
        const y = BigInt(`0x${Buffer.from(bytes).reverse().toString("hex")}`) & ((1n << 255n) - 1n);
        const problem = ephemeralKeyProblem(bytes);
        const decodes = problem === undefined || problem.includes("small order");
        // x = 0 exactly when y^2 = 1: y = 1 or p - 1, which sign bit 1 cannot encode.
        expect(decodes).toBe(y < P && hasX(y) && y !== 1n && y !== P - 1n);
      }),
      { numRuns: 300 },
    );
  });

  it("decodes exactly the y for which the curve has an x (Euler's criterion), fast-check", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (raw) => {
        const bytes = Uint8Array.from(raw);
        bytes[31] = (bytes[31] as number) & 0x7f; // sign bit 0: x = 0 is then allowed too
        const y = BigInt(`0x${Buffer.from(bytes).reverse().toString("hex")}`);
        const problem = ephemeralKeyProblem(bytes);
        const decodes = problem === undefined || problem.includes("small order");
        expect(decodes).toBe(y < P && hasX(y));
      }),
      { numRuns: 300 },
    );
  });
});

describe("certifyZttKey", () => {
  const day = 20_000;
  const at = (hours: number) => day * TICKS_PER_DAY + hours * 3_600_000;

  it("certifies a key for the opening open by the authority's clock, which verifyZtt accepts with the authority's keys alone", async () => {
    let now = at(5.5); // Z1 7:30 local, inside [90, 120] (UTC 04:00 to 06:00)
    const authority = createMemoryAuthority({ clock: () => now });
    // The caller's signer: its own key, the authority's certificate.
    const signer = zttSignerCertifiedBy({ window: [90, 120], zone: 1, clock: () => now }, (ephemeral_x, window, zone) => authority.certifyZttKey({ ephemeral_x, window, zone }));
    const bundle = await signer.sign("hello");
    expect(bundle.certificate).toMatchObject({ day_index: day, ...windowInterval([90, 120], 1, day) });
    expect(await verifyZtt(bundle, Object.values(await authority.publicKeys()), { payload: "hello" })).toMatchObject({ valid: true });

    const x = base64url(await generatedPublicKey());
    now = at(6) + 1;
    await expect(authority.certifyZttKey({ ephemeral_x: x, window: [90, 120], zone: 1 })).rejects.toMatchObject({ code: "ZTT_WINDOW_CLOSED", next_open_unix_ms: at(28) });
    await expect(authority.certifyZttKey({ ephemeral_x: base64url(hex(SMALL_ORDER[4]!)), window: [0, 360], zone: 1 })).rejects.toMatchObject({ code: "ZTT_KEY_INVALID" });
    await expect(authority.certifyZttKey({ ephemeral_x: `${x}=`, window: [0, 360], zone: 1 })).rejects.toMatchObject({ code: "ZTT_KEY_INVALID" });
    await expect(authority.certifyZttKey({ ephemeral_x: x, window: [0, 361], zone: 1 })).rejects.toMatchObject({ code: "INVALID_WINDOW" });
    await expect(authority.certifyZttKey({ ephemeral_x: x, window: [0, 360], zone: 12 })).rejects.toMatchObject({ code: "INVALID_ZONE" });
  });
});
