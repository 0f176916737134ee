import { generateKeyPairSync, sign } from "node:crypto";
import { expect } from "vitest";
import type { Ed25519Sign } from "../src/core/note-key.js";
import { createCosigner, formatSignatureLine, type Cosigner, type CosignedCheckpoint, type SignedCheckpoint } from "../src/index.js";

/** A fresh Ed25519 key: the raw public key and a signer of the shape the note functions inject. */
export interface TestKey {
  readonly publicKey: Uint8Array;
  readonly sign: Ed25519Sign;
}

export function testKey(): TestKey {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const x = publicKey.export({ format: "jwk" }).x as string;
  return {
    publicKey: new Uint8Array(Buffer.from(x, "base64url")),
    sign: async (message) => new Uint8Array(sign(null, message, privateKey)),
  };
}

/** A witness's cosigner with a fresh key. */
export function testCosigner(name: string): Cosigner {
  const key = testKey();
  return createCosigner(name, key.publicKey, key.sign);
}

/** `head` cosigned by `cosigners` at `times` (POSIX seconds), as a witnessing authority would attach it. */
export async function cosignCheckpoint(head: SignedCheckpoint, cosigners: readonly Cosigner[], times: readonly number[]): Promise<CosignedCheckpoint> {
  const text = head.note.slice(0, head.note.indexOf("\n\n") + 1);
  const lines = await Promise.all(cosigners.map((cosigner, i) => cosigner.cosign(text, times[i] as number)));
  return {
    ...head,
    note: head.note + lines.map(formatSignatureLine).join(""),
    cosignatures: cosigners.map((cosigner, i) => ({ witness: cosigner.name, timestamp: times[i] as number })),
  };
}

/** The error `run` throws or rejects with, which must carry `code` and every fragment in its message. */
export async function expectCode(run: () => unknown, code: string, ...fragments: string[]): Promise<void> {
  let thrown: unknown;
  try {
    await run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, "expected an error").toBeInstanceOf(Error);
  expect((thrown as { code?: string }).code, String(thrown)).toBe(code);
  for (const fragment of fragments) expect((thrown as Error).message).toContain(fragment);
}

/** The note's UTF-8 with byte `at` (modulo its length) XORed with `mask`. */
export function tamper(note: string, at: number, mask: number): Uint8Array {
  const bytes = new TextEncoder().encode(note);
  const index = at % bytes.length;
  bytes[index] = (bytes[index] as number) ^ mask;
  return bytes;
}
