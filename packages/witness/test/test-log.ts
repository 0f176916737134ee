/**
 * A transparency log for the tests: leaves in memory, checkpoints signed
 * by the SDK with a fresh Ed25519 key, consistency proofs from the
 * independent RFC 6962 implementation.
 */

import { generateKeyPairSync, sign } from "node:crypto";
import { bytesToHex, ed25519NoteSigner, formatVerifierKey, signCheckpoint } from "@temporal/agent-sdk";
import { consistencyProof, leafHash, treeHash } from "./independent.js";

export class TestLog {
  readonly origin: string;
  readonly vkey: string;
  readonly #signer;
  readonly #leaves: Uint8Array[] = [];

  constructor(origin: string) {
    this.origin = origin;
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const raw = new Uint8Array(Buffer.from(publicKey.export({ format: "jwk" }).x as string, "base64url"));
    this.vkey = formatVerifierKey(origin, raw);
    this.#signer = ed25519NoteSigner(origin, raw, async (message) => new Uint8Array(sign(null, message, privateKey)));
  }

  /** Appends `count` leaves (distinct per log and index). */
  append(count: number): this {
    for (let i = 0; i < count; i++) this.#leaves.push(leafHash(new TextEncoder().encode(`${this.origin} leaf ${this.#leaves.length}`)));
    return this;
  }

  get size(): number {
    return this.#leaves.length;
  }

  root(size = this.size): Uint8Array {
    return treeHash(this.#leaves.slice(0, size));
  }

  /** The signed checkpoint note at `size`, or with `root` in place of the true root (a fork). */
  checkpoint(size = this.size, root = this.root(size)): Promise<string> {
    return signCheckpoint({ origin: this.origin, tree_size: size, root_hash: bytesToHex(root), extensions: [] }, this.#signer);
  }

  /** The RFC 6962 proof from `oldSize` to `size`; none from 0. */
  proof(oldSize: number, size = this.size): Uint8Array[] {
    return oldSize === 0 ? [] : consistencyProof(oldSize, this.#leaves.slice(0, size));
  }
}
