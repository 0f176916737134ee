import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCheckpoint, openCheckpoint, parseCheckpoint, signCheckpoint, type Checkpoint } from "../src/core/checkpoint.js";
import { ed25519NoteSigner, formatVerifierKey, noteVerifier } from "../src/core/note-key.js";
import { parseNote, signNote } from "../src/core/signed-note.js";
import { expectCode, tamper, testKey } from "./note-helpers.js";

// The example of c2sp.org/tlog-checkpoint@v1.0.0, verbatim.
const SPEC_CHECKPOINT = `example.com/behind-the-sofa
20852163
CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=

— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=
`;
// c2sp.org/tlog-cosignature@v1.0.1: the same checkpoint with a witness's cosignature, and the cosigned message's timestamp line.
const SPEC_COSIGNED = `example.com/behind-the-sofa
20852163
CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=

— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=
— witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==
`;
const SPEC_COSIGNATURE_TIME = 1679315147;
// c2sp.org/tlog-witness@v1.0.0: the checkpoint of the add-checkpoint request (signed by two keys of one name) and the response's cosignatures.
const SPEC_WITNESS_CHECKPOINT = `example.com/behind-the-sofa
20852163
CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=

— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=
— example.com/behind-the-sofa opLqBQsREYCgu6xQkYQwJr9fo45a62DN9EdmHXnZdXNqlcVGlCum2Wks+49/V6267UEjw6QUXTS5Rovnzv++qbSzm9Q=
`;
const SPEC_WITNESS_RESPONSE = `— witness.example/w1 CMp+6LWBU0anHGH5aNDTJkH/gj79sG+T6+iP2ThYN5krrDJbR1HDnucjL39QsZTSvVjyQLrdk3DXDqI5G2HgLatVs0pWh6Up69HVOw==
— witness.example/w1 I7rEps0pvK2UqkS2gSpVUDhrhVtQV9lgF6pRrWAvjJHjyWpW7VcE3SiOlVlbQNt64vWhO+DlkL0+UfzuOBMh9ChdMkP1vi/lCAsmlw==
— witness.example/w2 AWui8Sk55XjYLOijihBjhqEH6nS1ndDymE0a+6idX7pLcnoB+dhnz0854aLZgrrKbYKA7nC3HNJhm/kWl7oJlqU3rXXvpysAdyP3wQ==
`;

const SPEC_BODY: Checkpoint = {
  origin: "example.com/behind-the-sofa",
  tree_size: 20852163,
  root_hash: Buffer.from("CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=", "base64").toString("hex"),
  extensions: [],
};

describe("the C2SP specs' example checkpoints", () => {
  it("reads the tlog-checkpoint example, signed under its origin, and writes its body back byte for byte", () => {
    const note = parseNote(SPEC_CHECKPOINT);
    expect(parseCheckpoint(note.text)).toEqual(SPEC_BODY);
    expect(SPEC_BODY.root_hash).toBe("0ac5186a91863e8e1d90c808014aa89bf5da8e3ee1d9f07630f0378f68f1ab62");
    expect(formatCheckpoint(SPEC_BODY)).toBe(note.text);
    expect(note.signatures.map((s) => [s.name, s.keyId, s.signature.length])).toEqual([["example.com/behind-the-sofa", 0x033de0ae, 64]]);
  });

  it("reads the tlog-cosignature example: the witness's signature carries the timestamp of the spec's cosigned message", () => {
    const note = parseNote(SPEC_COSIGNED);
    expect(parseCheckpoint(note.text)).toEqual(SPEC_BODY);
    const witness = note.signatures[1]!;
    expect([witness.name, witness.keyId, witness.signature.length]).toEqual(["witness.example.com/w1", 0x8d66cf3f, 8 + 64]);
    expect(new DataView(witness.signature.buffer, witness.signature.byteOffset).getBigUint64(0)).toBe(BigInt(SPEC_COSIGNATURE_TIME));
  });

  it("reads the tlog-witness exchange: two log keys of one name, then the witnesses' response appended", () => {
    const request = parseNote(SPEC_WITNESS_CHECKPOINT);
    expect(request.signatures.map((s) => [s.name, s.keyId])).toEqual([
      ["example.com/behind-the-sofa", 0x033de0ae],
      ["example.com/behind-the-sofa", 0xa292ea05],
    ]);
    // The spec lets a client append the response to the checkpoint and read it as one note.
    const merged = parseNote(SPEC_WITNESS_CHECKPOINT + SPEC_WITNESS_RESPONSE);
    expect(parseCheckpoint(merged.text)).toEqual(SPEC_BODY);
    expect(merged.signatures.map((s) => s.name)).toEqual(["example.com/behind-the-sofa", "example.com/behind-the-sofa", "witness.example/w1", "witness.example/w1", "witness.example/w2"]);
  });

  it("does not open the examples without their log's key, whose public half the specs do not give", async () => {
    const unrelated = await noteVerifier(formatVerifierKey("example.com/behind-the-sofa", testKey().publicKey));
    await expectCode(() => openCheckpoint(SPEC_WITNESS_CHECKPOINT + SPEC_WITNESS_RESPONSE, [unrelated]), "NOTE_NOT_VERIFIED", "no signature from a known key");
  });
});

describe("signing and opening checkpoints", () => {
  const key = testKey();
  const origin = "temporal.example/log";
  const signer = ed25519NoteSigner(origin, key.publicKey, key.sign);
  const checkpoint: Checkpoint = { origin, tree_size: 3, root_hash: "ab".repeat(32), extensions: ["first extension", "second — with + and ="] };

  it("signs under the origin's key name and opens with the origin's vkey, extension lines included", async () => {
    const note = await signCheckpoint(checkpoint, signer);
    expect(note.startsWith(`${origin}\n3\n${Buffer.from("ab".repeat(32), "hex").toString("base64")}\nfirst extension\nsecond — with + and =\n\n— ${origin} `)).toBe(true);
    const opened = await openCheckpoint(note, [await noteVerifier(formatVerifierKey(origin, key.publicKey))]);
    expect(opened.checkpoint).toEqual(checkpoint);
    expect(opened.note.verified.map((s) => s.name)).toEqual([origin]);
  });

  it("refuses to sign under another key name than the origin", async () => {
    const other = ed25519NoteSigner("temporal.example/other", key.publicKey, key.sign);
    await expectCode(() => signCheckpoint(checkpoint, other), "INVALID_CHECKPOINT", "key name of its origin");
  });

  it("does not take a witness's signature alone for the log's", async () => {
    const witnessKey = testKey();
    const witness = ed25519NoteSigner("witness.example/w", witnessKey.publicKey, witnessKey.sign);
    const note = await signNote(formatCheckpoint(checkpoint), [witness]);
    await expectCode(
      async () => openCheckpoint(note, [await noteVerifier(formatVerifierKey("witness.example/w", witnessKey.publicKey))]),
      "NOTE_NOT_VERIFIED",
      "no valid signature by a key named like its origin",
    );
  });

  it("accepts an empty tree", () => {
    const empty = { origin, tree_size: 0, root_hash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", extensions: [] };
    expect(parseCheckpoint(formatCheckpoint(empty))).toEqual(empty);
  });
});

describe("parsing refuses malformed bodies", () => {
  const body = parseNote(SPEC_CHECKPOINT).text;
  const cases: [string, string, string][] = [
    ["CRLF line ends", body.replace(/\n/g, "\r\n"), "carriage return"],
    ["no final newline", body.slice(0, -1), "does not end in a newline"],
    ["two lines", "example.com/log\n1\n", "fewer than three lines"],
    ["a size with a leading zero", body.replace("20852163", "020852163"), "without leading zeros"],
    ["a zero size spelled 00", body.replace("20852163", "00"), "without leading zeros"],
    ["a negative size", body.replace("20852163", "-1"), "without leading zeros"],
    ["a size with a plus sign", body.replace("20852163", "+1"), "without leading zeros"],
    ["a size with a space", body.replace("20852163", "20852163 "), "without leading zeros"],
    ["a size beyond 2^53 - 1", body.replace("20852163", "9007199254740992"), "beyond 2^53 - 1"],
    ["a root of 31 bytes", body.replace("CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=", Buffer.alloc(31).toString("base64")), "base64 of 32 bytes"],
    ["a root of 33 bytes", body.replace("CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=", Buffer.alloc(33).toString("base64")), "base64 of 32 bytes"],
    ["an unpadded root", body.replace("2I=", "2I"), "base64 of 32 bytes"],
    ["a root in base64url", body.replace("om/X", "om_X"), "base64 of 32 bytes"],
    ["a root in hex", body.replace("CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=", SPEC_BODY.root_hash), "base64 of 32 bytes"],
    ["an origin with a space", body.replace("example.com/behind-the-sofa", "example.com/behind the sofa"), "is not a key name"],
    ["an origin with a plus", body.replace("example.com/behind-the-sofa", "example.com/behind+the+sofa"), "is not a key name"],
    ["an empty origin", body.replace("example.com/behind-the-sofa", ""), "is not a key name"],
    ["an empty extension line", `${body}\n`, "extension line 1"],
    ["a control character in an extension line", `${body}a\u0001b\n`, "extension line 1"],
  ];
  it.each(cases)("%s", async (_, text, fragment) => {
    await expectCode(() => parseCheckpoint(text), "INVALID_CHECKPOINT", fragment);
  });

  it("refuses to format what it would not parse", async () => {
    await expectCode(() => formatCheckpoint({ ...SPEC_BODY, tree_size: -1 }), "INVALID_CHECKPOINT", "tree_size -1");
    await expectCode(() => formatCheckpoint({ ...SPEC_BODY, tree_size: 1.5 }), "INVALID_CHECKPOINT", "tree_size 1.5");
    await expectCode(() => formatCheckpoint({ ...SPEC_BODY, root_hash: "AB".repeat(32) }), "INVALID_CHECKPOINT", "root_hash");
    await expectCode(() => formatCheckpoint({ ...SPEC_BODY, origin: "a b" }), "INVALID_CHECKPOINT", "origin");
    await expectCode(() => formatCheckpoint({ ...SPEC_BODY, extensions: ["two\nlines"] }), "INVALID_CHECKPOINT", "extension line 1");
  });
});

describe("properties", () => {
  const origin = fc.string({ unit: fc.constantFrom("a", "z", ".", "/", "-", "é", "😀"), minLength: 1, maxLength: 20 });
  const extension = fc.string({ unit: fc.constantFrom("a", " ", "+", "=", "—", "😀"), minLength: 1, maxLength: 12 });
  const checkpoint = fc.record({
    origin,
    tree_size: fc.maxSafeNat(),
    root_hash: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString("hex")),
    extensions: fc.array(extension, { maxLength: 4 }),
  });

  it("format then parse is the identity, extension lines included", () => {
    fc.assert(
      fc.property(checkpoint, (c) => {
        expect(parseCheckpoint(formatCheckpoint(c))).toEqual(c);
      }),
    );
  });

  it("a signed checkpoint opens to itself, and any single-byte change is refused", async () => {
    const key = testKey();
    await fc.assert(
      fc.asyncProperty(checkpoint, fc.nat(), fc.integer({ min: 1, max: 255 }), async (c, at, mask) => {
        const verifiers = [await noteVerifier(formatVerifierKey(c.origin, key.publicKey))];
        const note = await signCheckpoint(c, ed25519NoteSigner(c.origin, key.publicKey, key.sign));
        expect((await openCheckpoint(note, verifiers)).checkpoint).toEqual(c);
        await expect(openCheckpoint(tamper(note, at, mask), verifiers)).rejects.toMatchObject({ code: expect.stringMatching(/^(INVALID_NOTE|INVALID_CHECKPOINT|NOTE_NOT_VERIFIED)$/) });
      }),
      { numRuns: 200 },
    );
  });
});
