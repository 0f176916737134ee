import { readFile } from "node:fs/promises";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openCheckpoint, parseCheckpoint } from "../src/core/checkpoint.js";
import { formatSignatureLine, parseNote, signNote } from "../src/core/signed-note.js";
import { ed25519NoteSigner, noteVerifier, parseVerifierKey } from "../src/core/note-key.js";
import { GENESIS_CHECKPOINT_HASH, checkpointHash, formatTileCheckpoint, openTileCheckpoint, parseTileCheckpoint, type TileCheckpoint } from "../src/core/tile-checkpoint.js";
import { authorityVerifierKey, authorityVerifierKeys, defaultAuthorityName, parseTileOrigin, tileCheckpointSigner, tileOrigin, tileVerifierKey } from "../src/core/tile-origin.js";
import { MAX_ABS_DAY_INDEX, ZONE_COUNT } from "../src/core/units.js";
import type { PublicKeyJwk } from "../src/core/types.js";
import { expectCode, tamper, testKey } from "./note-helpers.js";

const MAX_TILE_ID = MAX_ABS_DAY_INDEX * ZONE_COUNT - 1;
// The key of docs/service.md's GET /keys example; docs/checkpoints.md shows what it gives.
const DOC_JWK: PublicKeyJwk = { kty: "OKP", crv: "Ed25519", x: "KjFfO3eVg9Eqc947ruDPCAxDuRNtqSqxyJDRKBlrB6A", kid: "34df66eb7c4fd417" };
const DOC_AUTHORITY_VKEY = "temporal-authority/34df66eb7c4fd417+a535dba2+ASoxXzt3lYPRKnPeO67gzwgMQ7kTbakqsciQ0SgZaweg";
const DOC_TILE_VKEY = "temporal-authority/34df66eb7c4fd417/tile/249349+85d0d817+ASoxXzt3lYPRKnPeO67gzwgMQ7kTbakqsciQ0SgZaweg";
const DOC_GENESIS: TileCheckpoint = {
  origin: "temporal-authority/34df66eb7c4fd417/tile/249348",
  tree_size: 2,
  root_hash: "5".repeat(64),
  sequence: 0,
  prev_checkpoint_hash: GENESIS_CHECKPOINT_HASH,
  issued_unix_ms: 1763776000000,
};
const DOC_BODY = `temporal-authority/34df66eb7c4fd417/tile/249349
1
/yBhI6wrlowrAvdhPBmkdKcrlzcEgyDyI74XpwpD/YI=
temporal-chain 1 aK54Fk+dlLHjgK3L7QlBZvaIabVC8vyNbSMvtwbi6/w=
temporal-issued 1763781570356
`;
const DOC_HEAD: TileCheckpoint = {
  origin: "temporal-authority/34df66eb7c4fd417/tile/249349",
  tree_size: 1,
  root_hash: "ff206123ac2b968c2b02f7613c19a474a72b9737048320f223be17a70a43fd82",
  sequence: 1,
  prev_checkpoint_hash: checkpointHash(formatTileCheckpoint(DOC_GENESIS)),
  issued_unix_ms: 1763781570356,
};

describe("tile origins", () => {
  it("are <authority name>/tile/<tile id>, and parse back", () => {
    expect(tileOrigin("clock.example.com", 249349)).toBe("clock.example.com/tile/249349");
    expect(parseTileOrigin("clock.example.com/tile/249349")).toEqual({ authority_name: "clock.example.com", tile_id: 249349 });
    expect(parseTileOrigin(tileOrigin("a", 0))).toEqual({ authority_name: "a", tile_id: 0 });
    expect(parseTileOrigin(tileOrigin("a", MAX_TILE_ID)).tile_id).toBe(MAX_TILE_ID);
    // The tile id follows the last "/tile/", so an authority name may itself contain one.
    expect(parseTileOrigin(tileOrigin("mirror.example/tile/7", 8))).toEqual({ authority_name: "mirror.example/tile/7", tile_id: 8 });
  });

  it("name an authority by its key id when it has no configured name", () => {
    expect(defaultAuthorityName(DOC_JWK)).toBe("temporal-authority/34df66eb7c4fd417");
    const key = testKey();
    expect(defaultAuthorityName(key.publicKey)).toMatch(/^temporal-authority\/[0-9a-f]{16}$/);
  });

  it.each([
    ["clock.example.com/tile/01", "leading zero"],
    ["clock.example.com/tile/", "no tile id"],
    ["clock.example.com/tile/-1", "negative"],
    ["clock.example.com/tile/1.5", "fraction"],
    ["clock.example.com/tile/1e3", "exponent"],
    [`clock.example.com/tile/${MAX_TILE_ID + 1}`, "past the last tile"],
    ["/tile/5", "no authority name"],
    ["clock example/tile/5", "a space in the authority name"],
    ["clock+example/tile/5", "a plus in the authority name"],
    ["clock.example.com/5", "no /tile/"],
    ["clock.example.com/TILE/5", "an uppercase TILE"],
  ])("refuses %s (%s)", async (origin) => {
    await expectCode(() => parseTileOrigin(origin), "INVALID_ORIGIN", "is not a tile origin");
  });

  it("refuses to make an origin of a bad name or tile id", async () => {
    await expectCode(() => tileOrigin("a b", 1), "INVALID_NOTE_KEY");
    await expectCode(() => tileOrigin("a", -1), "INVALID_TILE", "-1");
    await expectCode(() => tileOrigin("a", MAX_TILE_ID + 1), "INVALID_TILE");
    await expectCode(() => tileOrigin("a", 2.5), "INVALID_TILE");
  });

  it("round-trip for every authority name and tile id", () => {
    const name = fc.string({ unit: fc.constantFrom("a", "/", ".", "-", "0", "é"), minLength: 1, maxLength: 16 });
    fc.assert(
      fc.property(name, fc.integer({ min: 0, max: MAX_TILE_ID }), (authority, tile) => {
        expect(parseTileOrigin(tileOrigin(authority, tile))).toEqual({ authority_name: authority, tile_id: tile });
      }),
    );
  });
});

describe("tile verifier keys, derived from the authority's", () => {
  it("are the authority's key under the tile origin, with that name's key ID", () => {
    expect(authorityVerifierKey(DOC_JWK)).toBe(DOC_AUTHORITY_VKEY);
    expect(authorityVerifierKeys({ [DOC_JWK.kid]: DOC_JWK })).toEqual({ [DOC_JWK.kid]: DOC_AUTHORITY_VKEY });
    expect(tileVerifierKey(DOC_AUTHORITY_VKEY, 249349)).toBe(DOC_TILE_VKEY);
    const tile = parseVerifierKey(DOC_TILE_VKEY);
    expect(tile.name).toBe(tileOrigin(defaultAuthorityName(DOC_JWK), 249349));
    expect(tile.publicKey).toEqual(parseVerifierKey(DOC_AUTHORITY_VKEY).publicKey);
    expect(tile.keyId).not.toBe(parseVerifierKey(DOC_AUTHORITY_VKEY).keyId);
  });

  it("verify the checkpoints a tile signer makes, and only that tile's", async () => {
    const key = testKey();
    const authority = "clock.example.com";
    const vkey = authorityVerifierKey(key.publicKey, authority);
    const head = { ...DOC_HEAD, origin: tileOrigin(authority, 249349) };
    const note = await signNote(formatTileCheckpoint(head), [tileCheckpointSigner(authority, 249349, key.publicKey, key.sign)]);
    expect((await openCheckpoint(note, [await noteVerifier(tileVerifierKey(vkey, 249349))])).checkpoint.origin).toBe(head.origin);
    await expectCode(async () => openCheckpoint(note, [await noteVerifier(tileVerifierKey(vkey, 249350))]), "NOTE_NOT_VERIFIED", "no signature from a known key");
    // The authority vkey itself names no tree: a checkpoint is never signed under it.
    await expectCode(async () => openCheckpoint(note, [await noteVerifier(vkey)]), "NOTE_NOT_VERIFIED");
  });

  it("refuse an authority vkey of another signature type", async () => {
    const cosigner = `w.example+${"0".repeat(8)}+${Buffer.concat([Buffer.from([0x07]), Buffer.alloc(32)]).toString("base64")}`;
    await expectCode(() => tileVerifierKey(cosigner, 1), "INVALID_NOTE_KEY", "not an Ed25519");
  });
});

describe("tile heads as checkpoints", () => {
  it("write the tile state as a checkpoint body with the chain in two extension lines, and read it back", () => {
    expect(formatTileCheckpoint(DOC_HEAD)).toBe(DOC_BODY);
    expect(parseTileCheckpoint(DOC_BODY)).toEqual(DOC_HEAD);
    // Any checkpoint reader sees the tile's tree head; the chain is opaque extension lines to it.
    expect(parseCheckpoint(DOC_BODY)).toMatchObject({ origin: DOC_HEAD.origin, tree_size: 1, root_hash: DOC_HEAD.root_hash });
  });

  it("chain over bodies only: cosignatures added later change no hash", async () => {
    const key = testKey();
    const witnessKey = testKey();
    const body = formatTileCheckpoint(DOC_HEAD);
    const signed = await signNote(body, [tileCheckpointSigner("temporal-authority/34df66eb7c4fd417", 249349, key.publicKey, key.sign)]);
    const cosignature = formatSignatureLine({
      name: "witness.example/w1",
      keyId: ed25519NoteSigner("witness.example/w1", witnessKey.publicKey, witnessKey.sign).keyId,
      signature: await witnessKey.sign(new TextEncoder().encode(body)),
    });
    const next = { ...DOC_HEAD, sequence: 2, prev_checkpoint_hash: checkpointHash(parseNote(signed + cosignature).text) };
    expect(next.prev_checkpoint_hash).toBe(checkpointHash(body));
    expect(next.prev_checkpoint_hash).toBe(Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body))).toString("hex"));
  });

  const bad: [string, string, string][] = [
    ["no chain lines", DOC_BODY.split("temporal-chain")[0] as string, 'not "temporal-chain'],
    ["the chain lines swapped", DOC_BODY.replace(/(temporal-chain .*\n)(temporal-issued .*\n)/, "$2$1"), 'not "temporal-chain'],
    ["a third extension line", `${DOC_BODY}more\n`, 'not "temporal-chain'],
    ["a sequence with a leading zero", DOC_BODY.replace("temporal-chain 1 ", "temporal-chain 01 "), 'not "temporal-chain'],
    ["an issued time of -0", DOC_BODY.replace("temporal-issued 1763781570356", "temporal-issued -0"), 'not "temporal-chain'],
    ["a hash of 31 bytes", DOC_BODY.replace("aK54Fk+dlLHjgK3L7QlBZvaIabVC8vyNbSMvtwbi6/w=", Buffer.alloc(31, 1).toString("base64")), "previous checkpoint hash"],
    ["sequence 0 after a real head", DOC_BODY.replace("temporal-chain 1 ", "temporal-chain 0 "), "only the first head (sequence 0) has the genesis hash"],
    ["the genesis hash after sequence 0", DOC_BODY.replace("aK54Fk+dlLHjgK3L7QlBZvaIabVC8vyNbSMvtwbi6/w=", Buffer.alloc(32).toString("base64")), "only the first head"],
    ["an issued time beyond the SDK's range", DOC_BODY.replace("1763781570356", "9".repeat(20)), "issued time"],
  ];
  it.each(bad)("refuse %s", async (_, body, fragment) => {
    await expectCode(() => parseTileCheckpoint(body), "INVALID_CHECKPOINT", fragment);
  });

  it("refuse a checkpoint whose origin is not a tile origin", async () => {
    await expectCode(() => parseTileCheckpoint(DOC_BODY.replace("/tile/249349", "/tiles/249349")), "INVALID_ORIGIN");
    await expectCode(() => formatTileCheckpoint({ ...DOC_HEAD, origin: "clock.example.com" }), "INVALID_ORIGIN");
  });

  it("round-trip any tile state", () => {
    const head = fc.record({
      origin: fc.tuple(fc.constantFrom("a", "clock.example.com", "x/tile/3"), fc.integer({ min: 0, max: MAX_TILE_ID })).map(([a, t]) => tileOrigin(a, t)),
      tree_size: fc.maxSafeNat(),
      root_hash: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString("hex")),
      sequence: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
      prev_checkpoint_hash: fc
        .uint8Array({ minLength: 32, maxLength: 32 })
        .map((b) => Buffer.from(b).toString("hex"))
        .filter((h) => h !== GENESIS_CHECKPOINT_HASH),
      issued_unix_ms: fc.integer({ min: -8.64e15, max: 8.64e15 }),
    });
    fc.assert(
      fc.property(head, (h) => {
        expect(parseTileCheckpoint(formatTileCheckpoint(h))).toEqual(h);
      }),
    );
  });
});

describe("opening a tile checkpoint with the authority vkeys alone", () => {
  const key = testKey();
  const authority = "clock.example.com";
  const head = { ...DOC_HEAD, origin: tileOrigin(authority, 249349) };
  const sign = () => signNote(formatTileCheckpoint(head), [tileCheckpointSigner(authority, 249349, key.publicKey, key.sign)]);

  it("derives the tile's vkey from the authority vkey of the origin's authority name", async () => {
    const other = authorityVerifierKey(testKey().publicKey, "other.example");
    const opened = await openTileCheckpoint(await sign(), [other, authorityVerifierKey(key.publicKey, authority)]);
    expect(opened.head).toEqual(head);
    expect(opened.note.verified.map((s) => s.name)).toEqual([head.origin]);
  });

  it("refuses it with another key under the authority's name, or the right key under another name", async () => {
    // Another key under the same name has another key ID, so its derived tile vkey is an unknown key to the note.
    await expectCode(async () => openTileCheckpoint(await sign(), [authorityVerifierKey(testKey().publicKey, authority)]), "NOTE_NOT_VERIFIED", "no signature from a known key");
    await expectCode(async () => openTileCheckpoint(await sign(), [authorityVerifierKey(key.publicKey, "other.example")]), "NOTE_NOT_VERIFIED", "no signature from a known key");
  });

  it("refuses any single-byte change", async () => {
    const note = await sign();
    const vkeys = [authorityVerifierKey(key.publicKey, authority)];
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.integer({ min: 1, max: 255 }), async (at, mask) => {
        await expect(openTileCheckpoint(tamper(note, at, mask), vkeys)).rejects.toMatchObject({
          code: expect.stringMatching(/^(INVALID_NOTE|INVALID_CHECKPOINT|INVALID_ORIGIN|NOTE_NOT_VERIFIED)$/),
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe("docs/checkpoints.md", () => {
  it("shows what these functions produce", async () => {
    const doc = await readFile(new URL("../../../docs/checkpoints.md", import.meta.url), "utf8");
    for (const text of [DOC_AUTHORITY_VKEY, DOC_TILE_VKEY, DOC_BODY, DOC_HEAD.prev_checkpoint_hash]) expect(doc).toContain(text);
  });
});
