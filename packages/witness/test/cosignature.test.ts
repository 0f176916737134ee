import { generateKeyPairSync, sign } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bytesToHex, formatSignatureLine, hexToBytes, openNote, parseNote, parseVerifierKey, verifyConsistency } from "@temporal/agent-sdk";
import { COSIGNATURE_V1_TYPE, cosignatureVerifier, cosignedMessage, createCosigner, readCosignature } from "../src/index.js";
import { consistencyProof, leafHash, treeHash, verifiedLines } from "./independent.js";

// The example of c2sp.org/tlog-cosignature v1.0.1: a checkpoint with the log's signature and one cosignature.
const SPEC_COSIGNED_CHECKPOINT = `example.com/behind-the-sofa
20852163
CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=

\u2014 example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=
\u2014 witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==
`;

// The example of c2sp.org/signed-note v1.0.0, which checks the independent verifier itself.
const SPEC_NOTE_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k";
const SPEC_NOTE = "This is an example message.\n\n\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n";

function freshCosigner(name = "witness.example/w1") {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = new Uint8Array(Buffer.from(publicKey.export({ format: "jwk" }).x as string, "base64url"));
  return createCosigner(name, raw, async (message) => new Uint8Array(sign(null, message, privateKey)));
}

const checkpointText = fc
  .tuple(fc.stringMatching(/^[a-z0-9.]{1,20}\/[a-z0-9]{1,10}$/), fc.nat(), fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.array(fc.stringMatching(/^[a-z ]{1,12}$/), { maxLength: 2 }))
  .map(([origin, size, root, extensions]) => [origin, String(size), Buffer.from(root).toString("base64"), ...extensions].map((line) => `${line}\n`).join(""));
const timestamp = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });

describe("cosignature/v1 (C2SP tlog-cosignature v1.0.1)", () => {
  it("reads the spec's example cosignature: key name, 8-byte big-endian timestamp, 64-byte signature", () => {
    const line = parseNote(SPEC_COSIGNED_CHECKPOINT).signatures[1];
    const cosignature = readCosignature(line!);
    expect(cosignature?.name).toBe("witness.example.com/w1");
    expect(cosignature?.timestamp).toBe(1679315147);
    expect(cosignature?.signature.length).toBe(64);
    // The log's own line is a plain Ed25519 signature, not a timestamped one.
    expect(readCosignature(parseNote(SPEC_COSIGNED_CHECKPOINT).signatures[0]!)).toBeUndefined();
  });

  it("signs the message the spec shows: header, time line, then the checkpoint body", () => {
    expect(cosignedMessage("example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n", 1679315147)).toBe(
      "cosignature/v1\ntime 1679315147\nexample.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n",
    );
    for (const bad of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1]) expect(() => cosignedMessage("x\n", bad)).toThrow(/INVALID_COSIGNATURE|whole number/);
  });

  it("the independent verifier accepts the signed-note spec's example and refuses it tampered", () => {
    expect(verifiedLines(SPEC_NOTE, SPEC_NOTE_VKEY)).toHaveLength(1);
    expect(verifiedLines(SPEC_NOTE.replace("example message", "exemple message"), SPEC_NOTE_VKEY)).toHaveLength(0);
  });

  it("publishes a vkey of signature type 0x04 whose key ID is SHA-256(name || 0x0A || 0x04 || key)[:4]", () => {
    const cosigner = freshCosigner();
    const key = parseVerifierKey(cosigner.vkey);
    expect(key).toMatchObject({ name: "witness.example/w1", keyId: cosigner.keyId, signatureType: COSIGNATURE_V1_TYPE });
    expect(key.publicKey.length).toBe(32);
  });

  it("round trip: a cosignature verifies with openNote, and with the independent verifier, at its timestamp", async () => {
    const cosigner = freshCosigner();
    const verifier = await cosignatureVerifier(cosigner.vkey);
    await fc.assert(
      fc.asyncProperty(checkpointText, timestamp, async (text, time) => {
        const note = `${text}\n${formatSignatureLine(await cosigner.cosign(text, time))}`;
        const opened = await openNote(note, [verifier]);
        expect(readCosignature(opened.verified[0]!)?.timestamp).toBe(time);
        expect(verifiedLines(note, cosigner.vkey)).toEqual([{ timestamp: BigInt(time) }]);
      }),
      { numRuns: 40 },
    );
  });

  it("a cosignature does not verify for another text, another time or another key", async () => {
    const cosigner = freshCosigner();
    const other = freshCosigner();
    const verifier = await cosignatureVerifier(cosigner.vkey);
    const otherVerifier = await cosignatureVerifier(other.vkey);
    await fc.assert(
      fc.asyncProperty(checkpointText, checkpointText, timestamp, async (text, otherText, time) => {
        const { signature } = await cosigner.cosign(text, time);
        fc.pre(otherText !== text);
        expect(await verifier.verify(text, signature)).toBe(true);
        expect(await verifier.verify(otherText, signature)).toBe(false);
        const shifted = new Uint8Array(signature);
        shifted[7] = (shifted[7] as number) ^ 1;
        expect(await verifier.verify(text, shifted)).toBe(false);
        expect(await otherVerifier.verify(text, signature)).toBe(false);
        expect(await verifier.verify(text, signature.subarray(8))).toBe(false);
      }),
      { numRuns: 30 },
    );
  });

  it("refuses a vkey that is not of type 0x04", async () => {
    await expect(cosignatureVerifier(SPEC_NOTE_VKEY)).rejects.toMatchObject({ code: "INVALID_COSIGNATURE" });
  });
});

describe("the independent RFC 6962 implementation agrees with the SDK", () => {
  it("every consistency proof between sizes 1..24 verifies with the SDK's verifyConsistency", () => {
    const leaves = Array.from({ length: 24 }, (_, i) => leafHash(Uint8Array.of(i)));
    for (let n = 1; n <= leaves.length; n++) {
      const root = treeHash(leaves.slice(0, n));
      for (let m = 1; m <= n; m++) {
        const ok = verifyConsistency(m, n, treeHash(leaves.slice(0, m)), root, consistencyProof(m, leaves.slice(0, n)));
        expect(ok, `${m} -> ${n}`).toBe(true);
      }
    }
    expect(bytesToHex(treeHash([]))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(hexToBytes(bytesToHex(treeHash(leaves)))).toEqual(treeHash(leaves));
  });
});
