import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, sha256Hex } from "../src/core/index.js";

describe("canonicalJson (RFC 8785)", () => {
  it("reproduces the RFC 8785 section 3.2.2 example", () => {
    const input = {
      // eslint-disable-next-line no-loss-of-precision -- RFC 8785's example literal, rounded by JavaScript as the RFC intends
      numbers: [333333333.33333329, 1e30, 4.5, 2e-3, 0.000000000000000000000000001],
      string: "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"/",
      literals: [null, true, false],
    };
    expect(canonicalJson(input)).toBe(String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`);
  });

  it("sorts keys by UTF-16 code units (RFC 8785 section 3.2.3)", () => {
    const input = { "\u20ac": 1, "\r": 2, "\ufb33": 3, "1": 4, "\ud83d\ude00": 5, "\u0080": 6, "\u00f6": 7 };
    expect(canonicalJson(input)).toBe('{"\\r":2,"1":4,"\u0080":6,"\u00f6":7,"\u20ac":1,"\ud83d\ude00":5,"\ufb33":3}');
  });

  it.each([
    [0, "0"],
    [-0, "0"],
    [5e-324, "5e-324"],
    [-5e-324, "-5e-324"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [9007199254740992, "9007199254740992"],
    [295147905179352830000, "295147905179352830000"],
    [9.999999999999997e22, "9.999999999999997e+22"],
    [1e23, "1e+23"],
    [999999999999999700000, "999999999999999700000"],
    [1e21, "1e+21"],
    [9.999999999999997e-7, "9.999999999999997e-7"],
    [0.000001, "0.000001"],
    [333333333.33333325, "333333333.33333325"],
    [-0.0000033333333333333333, "-0.0000033333333333333333"],
    // eslint-disable-next-line no-loss-of-precision -- RFC 8785 appendix B's literal, as written there
    [1424953923781206.2, "1424953923781206.2"],
  ])("serialises the number %s as %s (RFC 8785 appendix B)", (value, text) => {
    expect(canonicalJson(value)).toBe(text);
  });

  it("is independent of key order and stable under a JSON round trip", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(canonicalJson(JSON.parse(JSON.stringify(value, null, 2)))).toBe(text);
        const reversed = JSON.parse(text, (_key, v: unknown) => (v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v));
        expect(canonicalJson(reversed)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    [{ a: undefined }, "$.a: undefined is not JSON"],
    [{ a: [1, Number.NaN] }, "$.a[1]: NaN is not a finite number"],
    [{ a: Infinity }, "$.a: Infinity"],
    [{ f: () => 1 }, "$.f"],
    [{ b: 1n }, "$.b: 1n is a bigint"],
    [{ d: new Date(0) }, "$.d: 1970-01-01T00:00:00.000Z is not a plain object"],
    [{ s: "\ud800" }, "$.s"],
    // eslint-disable-next-line no-sparse-arrays -- the hole is the value under test
    [[, 1], "$[0]"],
  ])("rejects %s, naming where", (value, message) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
    expect(() => canonicalJson(value)).toThrow(expect.objectContaining({ code: "INVALID_JSON_VALUE" }));
    expect(() => canonicalJson(value)).toThrow(message);
  });
});

describe("sha256Hex", () => {
  it("matches the FIPS 180-4 examples", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    expect(sha256Hex(new Uint8Array(1_000_000).fill(0x61))).toBe("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  });

  it("agrees with node:crypto for any bytes and any string (as UTF-8)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.string({ unit: "grapheme", maxLength: 100 }), (bytes, text) => {
        expect(sha256Hex(bytes)).toBe(createHash("sha256").update(bytes).digest("hex"));
        expect(sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
      }),
      { numRuns: 500 },
    );
  });
});
