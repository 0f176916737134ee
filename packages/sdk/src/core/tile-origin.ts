/**
 * Checkpoint origins of the clockchain's tiles. Each tile is its own Merkle
 * tree, so each has its own origin, `<authority name>/tile/<tile id>`, and,
 * the origin being the signing key's name, its own vkey. All of an
 * authority's tile vkeys are derived from one authority vkey
 * (`<authority name>+<key ID>+<key>`), which is what `GET keys` publishes and
 * what a witness or client is configured with. docs/checkpoints.md explains
 * the scheme.
 */

import { TemporalError, TemporalRangeError, describeValue } from "./errors.js";
import { ED25519_SIGNATURE_TYPE, assertNoteKeyName, ed25519NoteSigner, formatVerifierKey, isNoteKeyName, parseVerifierKey, type Ed25519Sign, type NoteSigner } from "./note-key.js";
import type { PublicKeyJwk } from "./types.js";
import { MAX_ABS_DAY_INDEX, ZONE_COUNT } from "./units.js";
import { keyIdOf, rawPublicKey } from "./verifying-key.js";

const TILE_SEPARATOR = "/tile/";
const TILE_ID = /^(?:0|[1-9][0-9]*)$/;
const MAX_TILE_ID = MAX_ABS_DAY_INDEX * ZONE_COUNT - 1;

export interface TileOrigin {
  readonly authority_name: string;
  readonly tile_id: number;
}

/**
 * `temporal-authority/<key id>`: the authority name of a key when none is
 * configured. It needs no configuration anywhere, but changes with the key,
 * so an authority that will rotate its key should be given a name.
 */
export function defaultAuthorityName(publicKey: PublicKeyJwk | Uint8Array): string {
  return `temporal-authority/${keyIdOf(rawPublicKey(publicKey))}`;
}

/** `<authority name>/tile/<tile id>`. Throws `INVALID_NOTE_KEY` for a bad name, `INVALID_TILE` for a bad tile id. */
export function tileOrigin(authorityName: string, tileId: number): string {
  assertNoteKeyName(authorityName);
  if (!Number.isInteger(tileId) || tileId < 0 || tileId > MAX_TILE_ID) {
    throw new TemporalRangeError("INVALID_TILE", `a tile id is an integer in [0, ${MAX_TILE_ID}], got ${describeValue(tileId)}`);
  }
  return `${authorityName}${TILE_SEPARATOR}${tileId}`;
}

/** The authority name and tile id of a tile origin; the tile id is what follows the last `/tile/`. Throws `INVALID_ORIGIN`. */
export function parseTileOrigin(origin: string): TileOrigin {
  const split = typeof origin === "string" ? origin.lastIndexOf(TILE_SEPARATOR) : -1;
  const authorityName = split < 0 ? "" : origin.slice(0, split);
  const tile = split < 0 ? "" : origin.slice(split + TILE_SEPARATOR.length);
  const tileId = TILE_ID.test(tile) ? Number(tile) : Number.NaN;
  if (!isNoteKeyName(authorityName) || !(tileId <= MAX_TILE_ID)) {
    throw new TemporalError("INVALID_ORIGIN", `${describeValue(origin)} is not a tile origin <authority name>/tile/<tile id in [0, ${MAX_TILE_ID}], no leading zeros>`);
  }
  return { authority_name: authorityName, tile_id: tileId };
}

/** The authority's vkey: its name and its Ed25519 key. `authorityName` defaults to `defaultAuthorityName(publicKey)`. */
export function authorityVerifierKey(publicKey: PublicKeyJwk | Uint8Array, authorityName: string = defaultAuthorityName(publicKey)): string {
  return formatVerifierKey(authorityName, publicKey);
}

/** Key id -> authority vkey for every key of `keys` (the JWKs of `GET keys`), each under its default authority name. */
export function authorityVerifierKeys(keys: Readonly<Record<string, PublicKeyJwk>>): Record<string, string> {
  return Object.fromEntries(Object.entries(keys).map(([keyId, jwk]) => [keyId, authorityVerifierKey(jwk)]));
}

/**
 * The vkey of one tile's checkpoints, from the authority's vkey: the same
 * Ed25519 key under the name `tileOrigin(authority name, tileId)`, with
 * the key ID that name gives. Throws `INVALID_NOTE_KEY` or `INVALID_TILE`.
 */
export function tileVerifierKey(authorityVkey: string, tileId: number): string {
  const key = parseVerifierKey(authorityVkey);
  if (key.signatureType !== ED25519_SIGNATURE_TYPE) {
    throw new TemporalError("INVALID_NOTE_KEY", `authority verifier key ${describeValue(authorityVkey)} is not an Ed25519 (0x01) key`);
  }
  return formatVerifierKey(tileOrigin(key.name, tileId), key.publicKey);
}

/** The signer of one tile's checkpoints: the authority's Ed25519 key under the tile's origin. */
export function tileCheckpointSigner(authorityName: string, tileId: number, publicKey: PublicKeyJwk | Uint8Array, sign: Ed25519Sign): NoteSigner {
  return ed25519NoteSigner(tileOrigin(authorityName, tileId), publicKey, sign);
}
