import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ED25519_SIGNATURE_TYPE,
  ed25519NoteSigner,
  formatVerifierKey,
  isNoteKeyName,
  isVerifierKey,
  noteKeyId,
  noteVerifier,
  parseVerifierKey,
  type NoteVerifier,
} from "../src/core/note-key.js";
import { MAX_NOTE_SIGNATURES, formatNote, formatSignatureLine, openNote, parseNote, signNote, type NoteSignature } from "../src/core/signed-note.js";
import { expectCode, tamper, testKey } from "./note-helpers.js";

// The examples of c2sp.org/signed-note@v1.0.0, verbatim.
const SPEC_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k";
const SPEC_NOTE = `This is an example message.

— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=
`;
const QUASIMODO = `Ognuno sta solo sul cuor della terra
trafitto da un raggio di sole:

ed è subito sera.

— quasimodo.example/salvatore NnugSzTjtVAewIS+Z/iJhUPeFDkO/5QQ2i5ddnGITLlC+EhfLW9oJKONrMouFSQU0xMcXxj99ihAQwaqP3ZekRwNtIc=
`;

const quasimodoLine = QUASIMODO.slice(QUASIMODO.lastIndexOf("—"));
const exampleLine = SPEC_NOTE.slice(SPEC_NOTE.lastIndexOf("—"));

describe("the signed-note spec's examples", () => {
  it("parses the example vkey, whose key ID is the SHA-256 recipe of its name and key", () => {
    const key = parseVerifierKey(SPEC_VKEY);
    expect(key).toMatchObject({ name: "example.com/foo", keyId: 0x530d903a, signatureType: ED25519_SIGNATURE_TYPE });
    expect(key.publicKey).toHaveLength(32);
    expect(noteKeyId(key.name, ED25519_SIGNATURE_TYPE, key.publicKey)).toBe(0x530d903a);
    expect(formatVerifierKey(key.name, key.publicKey)).toBe(SPEC_VKEY);
  });

  it("verifies the example note with the example vkey", async () => {
    const note = await openNote(SPEC_NOTE, [await noteVerifier(SPEC_VKEY)]);
    expect(note.text).toBe("This is an example message.\n");
    expect(note.verified.map((s) => [s.name, s.keyId, s.signature.length])).toEqual([["example.com/foo", 0x530d903a, 64]]);
    expect(note.unknown).toEqual([]);
    expect(formatNote(note)).toBe(SPEC_NOTE);
    // The same note as UTF-8 bytes.
    expect((await openNote(new TextEncoder().encode(SPEC_NOTE), [await noteVerifier(SPEC_VKEY)])).text).toBe(note.text);
  });

  it("reads the poem: its text keeps its own blank line, and the note comes back byte for byte", () => {
    const note = parseNote(QUASIMODO);
    expect(note.text).toBe("Ognuno sta solo sul cuor della terra\ntrafitto da un raggio di sole:\n\ned è subito sera.\n");
    expect(note.signatures.map((s) => [s.name, s.keyId])).toEqual([["quasimodo.example/salvatore", 0x367ba04b]]);
    expect(formatNote(note)).toBe(QUASIMODO);
  });

  it("refuses the poem with the example key: its signature is from an unknown key and none is known", async () => {
    await expectCode(async () => openNote(QUASIMODO, [await noteVerifier(SPEC_VKEY)]), "NOTE_NOT_VERIFIED", "no signature from a known key", "quasimodo.example/salvatore (key ID 367ba04b)");
  });

  it("ignores unknown signatures beside a known one, and reports them", async () => {
    const note = await openNote(SPEC_NOTE + quasimodoLine, [await noteVerifier(SPEC_VKEY)]);
    expect(note.verified.map((s) => s.name)).toEqual(["example.com/foo"]);
    expect(note.unknown.map((s) => s.name)).toEqual(["quasimodo.example/salvatore"]);
  });

  it("ignores a key that shares only the name, or only the key ID, with the signature", async () => {
    const example = await noteVerifier(SPEC_VKEY);
    const sameName = await noteVerifier(formatVerifierKey("example.com/foo", testKey().publicKey));
    const sameId: NoteVerifier = { name: "example.com/bar", keyId: 0x530d903a, verify: example.verify };
    await expectCode(() => openNote(SPEC_NOTE, [sameName, sameId]), "NOTE_NOT_VERIFIED", "no signature from a known key");
  });

  it("rejects the whole note when a known key's signature fails, even beside a valid one", async () => {
    const key = testKey();
    const signer = ed25519NoteSigner("example.com/bar", key.publicKey, key.sign);
    const forged = formatSignatureLine({ name: signer.name, keyId: signer.keyId, signature: new Uint8Array(64).fill(7) });
    const verifiers = [await noteVerifier(SPEC_VKEY), await noteVerifier(formatVerifierKey(signer.name, key.publicKey))];
    await expectCode(() => openNote(SPEC_NOTE + forged, verifiers), "NOTE_NOT_VERIFIED", "signature by example.com/bar", "does not verify");
  });
});

describe("signing notes", () => {
  it("signs with an injected Ed25519 signer; the vkey of the same name and key verifies it", async () => {
    const key = testKey();
    const signer = ed25519NoteSigner("temporal.example/a", key.publicKey, key.sign);
    const note = await signNote("hello\n", [signer]);
    expect(note).toMatch(/^hello\n\n— temporal\.example\/a [A-Za-z0-9+/]{91}=\n$/);
    const opened = await openNote(note, [await noteVerifier(formatVerifierKey("temporal.example/a", key.publicKey))]);
    expect(opened.verified[0]).toMatchObject({ name: "temporal.example/a", keyId: signer.keyId });
    // The signature is over exactly the text's UTF-8, final newline included, as Ed25519 makes it.
    expect(opened.verified[0]!.signature).toEqual(await key.sign(new TextEncoder().encode("hello\n")));
  });

  it("signs with several keys, in order, and any one of them verifies", async () => {
    const [a, b] = [testKey(), testKey()];
    const note = await signNote("two keys\n", [ed25519NoteSigner("a.example", a.publicKey, a.sign), ed25519NoteSigner("b.example", b.publicKey, b.sign)]);
    expect(parseNote(note).signatures.map((s) => s.name)).toEqual(["a.example", "b.example"]);
    const opened = await openNote(note, [await noteVerifier(formatVerifierKey("b.example", b.publicKey))]);
    expect([opened.verified.map((s) => s.name), opened.unknown.map((s) => s.name)]).toEqual([["b.example"], ["a.example"]]);
  });

  it("refuses a signer that returns something else than 64 bytes", async () => {
    const key = testKey();
    const short = ed25519NoteSigner("a.example", key.publicKey, async () => new Uint8Array(63));
    await expectCode(() => signNote("x\n", [short]), "INVALID_NOTE_KEY", "returned 63 bytes");
  });

  it("refuses text the note format cannot carry", async () => {
    const key = testKey();
    const signer = ed25519NoteSigner("a.example", key.publicKey, key.sign);
    await expectCode(() => signNote("no newline", [signer]), "INVALID_NOTE", "does not end in a newline");
    await expectCode(() => signNote("crlf\r\n", [signer]), "INVALID_NOTE", "carriage return");
    await expectCode(() => signNote("tab\there\n", [signer]), "INVALID_NOTE", "U+0009");
    await expectCode(() => signNote("lone \ud800 surrogate\n", [signer]), "INVALID_NOTE", "U+d800");
    await expectCode(() => signNote("unsigned\n", []), "INVALID_NOTE", "no signatures");
  });
});

describe("parsing refuses what the spec does not allow", () => {
  const cases: [string, string | Uint8Array, string][] = [
    ["CRLF line ends", SPEC_NOTE.replace(/\n/g, "\r\n"), "carriage return"],
    ["no final newline", SPEC_NOTE.slice(0, -1), "does not end in a newline"],
    ["no blank line before the signatures", SPEC_NOTE.replace("\n\n", "\n"), "no blank line"],
    ["no signature lines", "text\n\n", "no signature lines"],
    ["a signature line with a hyphen for the em dash", SPEC_NOTE.replace("— ", "- "), "em dash"],
    ["a signature line with two spaces after the name", SPEC_NOTE.replace("foo ", "foo  "), "not canonical padded base64"],
    ["a key name with a plus", SPEC_NOTE.replace("example.com/foo", "example.com/f+o"), "no valid key name"],
    ["a key name with a no-break space", SPEC_NOTE.replace("example.com/foo", "example\u00a0com/foo"), "no valid key name"],
    ["an empty key name", SPEC_NOTE.replace("— example.com/foo", "— "), "no valid key name"],
    ["unpadded base64", SPEC_NOTE.replace("QM=\n", "QM\n"), "not canonical padded base64"],
    ["base64 with non-zero trailing bits", SPEC_NOTE.replace("QM=\n", "QN=\n"), "not canonical padded base64"],
    ["base64url", SPEC_NOTE.replace("Uw2Q", "Uw-Q"), "not canonical padded base64"],
    ["a signature of only a key ID", "text\n\n— a.example AAAAAA==\n", "shorter than a key ID and one byte"],
    ["a control character", SPEC_NOTE.replace("example message", "example\u0007message"), "U+0007"],
    ["invalid UTF-8", new Uint8Array([0x61, 0xff, 0x0a, 0x0a, ...new TextEncoder().encode(exampleLine)]), "not valid UTF-8"],
    ["two signatures by one key", SPEC_NOTE + exampleLine, "two signatures by example.com/foo with key ID 530d903a"],
    [`${MAX_NOTE_SIGNATURES + 1} signatures`, manySignatures(MAX_NOTE_SIGNATURES + 1), `${MAX_NOTE_SIGNATURES + 1} signatures, more than`],
  ];
  it.each(cases)("%s", async (_, note, fragment) => {
    await expectCode(() => parseNote(note), "INVALID_NOTE", fragment);
  });

  it(`accepts ${MAX_NOTE_SIGNATURES} signatures (the spec asks for at least 16)`, () => {
    expect(parseNote(manySignatures(16)).signatures).toHaveLength(16);
    expect(parseNote(manySignatures(MAX_NOTE_SIGNATURES)).signatures).toHaveLength(MAX_NOTE_SIGNATURES);
  });

  it("keeps signatures by one name under different key IDs (a key rotation, or two signature types)", () => {
    // Base64 character 4 holds the top six bits of the key ID's last byte: 0x3a becomes 0x3e.
    const other = exampleLine.replace("— example.com/foo Uw2QOk", "— example.com/foo Uw2QPk");
    expect(parseNote(SPEC_NOTE + other).signatures.map((s) => s.keyId)).toEqual([0x530d903a, 0x530d903e]);
  });
});

describe("key names and verifier keys", () => {
  it("allows any non-empty name without Unicode spaces, plus or control characters", () => {
    for (const name of ["example.com/foo", "a", "oid/1.3.6.1.4.1", "straße/ü", "emoji/😀"]) expect(isNoteKeyName(name), name).toBe(true);
    for (const name of ["", "a b", "a+b", "a\u00a0b", "a\u0085b", "a\u2028b", "a\u3000b", "a\tb", "a\nb", "a\u0000b", "a\ud800"]) {
      expect(isNoteKeyName(name), JSON.stringify(name)).toBe(false);
    }
    expect(() => noteKeyId("a b", 1, new Uint8Array(32))).toThrow(expect.objectContaining({ code: "INVALID_NOTE_KEY" }));
  });

  const [name, id, key] = SPEC_VKEY.split("+") as [string, string, string];
  const badVkeys: [string, string, string][] = [
    ["a wrong key ID", `${name}+530d903b+${key}`, "but its name and key give 530d903a"],
    ["an uppercase key ID", `${name}+${id.toUpperCase()}+${key}`, "not 8 lowercase hex digits"],
    ["a short key ID", `${name}+530d903+${key}`, "is not <name>+<8 hex digits>+<base64 key>"],
    ["no key", `${name}+${id}`, "is not <name>+<8 hex digits>+<base64 key>"],
    ["no plus at all", "example.com/foo", "is not <name>+<8 hex digits>+<base64 key>"],
    ["an empty name", `+${id}+${key}`, "invalid key name"],
    ["a name with a space", `example .com+${id}+${key}`, "invalid key name"],
    ["unpadded base64", `${name}+${id}+${key.slice(0, -1)}`, "not canonical padded base64"],
    ["a 31-byte Ed25519 key", `${name}+${id}+${Buffer.from(Buffer.from(key, "base64").subarray(0, 32)).toString("base64")}`, "Ed25519 key of 31 bytes"],
  ];
  it.each(badVkeys)("refuses a vkey with %s", async (_, vkey, fragment) => {
    await expectCode(() => parseVerifierKey(vkey), "INVALID_NOTE_KEY", fragment);
    expect(isVerifierKey(vkey)).toBe(false);
  });

  it("parses a vkey of another signature type but does not verify with it", async () => {
    const publicKey = testKey().publicKey;
    const cosigner = formatVerifierKey("witness.example/w1", publicKey).split("+");
    const material = Buffer.concat([Buffer.from([0x04]), publicKey]).toString("base64");
    const id = noteKeyId("witness.example/w1", 0x04, publicKey).toString(16).padStart(8, "0");
    const vkey = `${cosigner[0]}+${id}+${material}`;
    expect(parseVerifierKey(vkey)).toMatchObject({ name: "witness.example/w1", signatureType: 0x04 });
    await expectCode(() => noteVerifier(vkey), "INVALID_NOTE_KEY", "signature type 0x04; only Ed25519 (0x01)");
  });

  it("refuses two different verifiers for one name and key ID", async () => {
    const example = await noteVerifier(SPEC_VKEY);
    await expectCode(() => openNote(SPEC_NOTE, [example, { ...example }]), "INVALID_NOTE_KEY", "two verifiers");
  });
});

describe("properties", () => {
  const lineText = fc.string({ unit: fc.constantFrom("a", "z", " ", "—", "+", "=", "è", "😀", "\u00a0", "/"), maxLength: 12 });
  const noteText = fc.array(lineText, { minLength: 1, maxLength: 6 }).map((lines) => lines.map((line) => `${line}\n`).join(""));
  const keyName = fc.string({ unit: fc.constantFrom("a", "b", ".", "/", "-", "é", "😀"), minLength: 1, maxLength: 10 });
  const signature = fc.record({ name: keyName, keyId: fc.nat({ max: 0xffffffff }), signature: fc.uint8Array({ minLength: 1, maxLength: 80 }) });
  const signatures = fc.uniqueArray(signature, { minLength: 1, maxLength: 8, selector: (s) => `${s.name}\n${s.keyId}` });

  it("format then parse gives back the note, and parse then format the text", () => {
    fc.assert(
      fc.property(noteText, signatures, (text, sigs) => {
        const formatted = formatNote({ text, signatures: sigs });
        const parsed = parseNote(formatted);
        expect(parsed.text).toBe(text);
        expect(parsed.signatures.map(plain)).toEqual(sigs.map(plain));
        expect(formatNote(parsed)).toBe(formatted);
      }),
    );
  });

  it("any single-byte change to a signed note, in its text or its signature, is refused", async () => {
    const key = testKey();
    const signer = ed25519NoteSigner("temporal.example/p", key.publicKey, key.sign);
    const verifiers = [await noteVerifier(formatVerifierKey(signer.name, key.publicKey))];
    await fc.assert(
      fc.asyncProperty(noteText, fc.nat(), fc.integer({ min: 1, max: 255 }), async (text, at, mask) => {
        const note = await signNote(text, [signer]);
        await expect(openNote(note, verifiers)).resolves.toMatchObject({ text });
        const changed = tamper(note, at, mask);
        await expect(openNote(changed, verifiers)).rejects.toMatchObject({ code: expect.stringMatching(/^(INVALID_NOTE|NOTE_NOT_VERIFIED)$/) });
      }),
      { numRuns: 300 },
    );
  });
});

function plain(s: NoteSignature): [string, number, number[]] {
  return [s.name, s.keyId, [...s.signature]];
}

function manySignatures(count: number): string {
  const lines = Array.from({ length: count }, (_, i) => formatSignatureLine({ name: `w${i}.example`, keyId: i, signature: new Uint8Array(64) }));
  return `text\n\n${lines.join("")}`;
}
