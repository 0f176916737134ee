/**
 * The logs a witness follows and their keys: exact origins with their note
 * vkeys, and clockchain authorities, whose every tile
 * (`<authority name>/tile/<tile id>`, a new one per SWT zone per day) is
 * known with the tile vkey derived from the authority's vkey
 * (docs/checkpoints.md). So a witness of a clockchain needs no new config
 * every two hours.
 */

import { noteVerifier, parseTileOrigin, tileVerifierKey, type NoteVerifier } from "@temporal/agent-sdk";

/** What `Witness` asks of its known logs: an origin's verifiers, undefined when the log is unknown (404). */
export interface LogKeys {
  get(origin: string): readonly NoteVerifier[] | Promise<readonly NoteVerifier[]> | undefined;
}

export class KnownLogs implements LogKeys {
  readonly #origins: ReadonlyMap<string, readonly NoteVerifier[]>;
  readonly #authorities: ReadonlyMap<string, readonly string[]>;
  /** Tile verifiers made so far; one tile is added per zone and day, so this stays small. */
  readonly #tiles = new Map<string, Promise<readonly NoteVerifier[]>>();

  /** `origins`: origin -> its verifiers; `authorities`: authority name -> its Ed25519 vkeys (under that name). */
  constructor(origins: ReadonlyMap<string, readonly NoteVerifier[]>, authorities: ReadonlyMap<string, readonly string[]> = new Map()) {
    this.#origins = origins;
    this.#authorities = authorities;
  }

  get(origin: string): readonly NoteVerifier[] | Promise<readonly NoteVerifier[]> | undefined {
    const exact = this.#origins.get(origin);
    if (exact !== undefined) return exact;
    let tile;
    try {
      tile = parseTileOrigin(origin);
    } catch {
      return undefined;
    }
    const vkeys = this.#authorities.get(tile.authority_name);
    if (vkeys === undefined) return undefined;
    let verifiers = this.#tiles.get(origin);
    if (verifiers === undefined) {
      const tileId = tile.tile_id;
      verifiers = Promise.all(vkeys.map((vkey) => noteVerifier(tileVerifierKey(vkey, tileId))));
      this.#tiles.set(origin, verifiers);
    }
    return verifiers;
  }
}
