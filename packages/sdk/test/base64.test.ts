import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64ToBytes, base64UrlToBytes, bytesToBase64, bytesToBase64Url } from "../src/core/encoding.js";

describe("padded standard base64 (RFC 4648 section 4)", () => {
  it("encodes like Node's Buffer and decodes back", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), (bytes) => {
        const text = bytesToBase64(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64"));
        expect(base64ToBytes(text)).toEqual(bytes);
      }),
    );
  });

  it("decodes only the one canonical spelling of some bytes", () => {
    for (const text of ["A", "AA", "AAA", "AA=", "A===", "AAA==", "AAAA====", "AB==", "AAB=", "AA==AA==", "AA AA", "AA-_", "AAA\n"]) {
      expect(base64ToBytes(text), JSON.stringify(text)).toBeUndefined();
    }
    expect(base64ToBytes("")).toEqual(new Uint8Array(0));
    expect(base64ToBytes("AA==")).toEqual(new Uint8Array([0]));
    expect(base64ToBytes("+/8=")).toEqual(new Uint8Array([0xfb, 0xff]));
  });

  it("leaves unpadded base64url as it was", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), (bytes) => {
        expect(bytesToBase64Url(bytes)).toBe(Buffer.from(bytes).toString("base64url"));
        expect(base64UrlToBytes(bytesToBase64Url(bytes))).toEqual(bytes);
      }),
    );
    expect(base64UrlToBytes("AA==")).toBeUndefined();
  });
});
