import { generateKeyPairSync, sign } from "node:crypto";
import { expect } from "vitest";
import type { Ed25519Sign } from "../src/core/note-key.js";

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
