import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { TemporalRangeError, TemporalTypeError } from "../src/core/errors.js";
import { createLocalAuthority, type LocalAuthority } from "../src/node/local-authority.js";
import { signedCheckpointOf } from "../src/core/signed-checkpoint.js";
import type { SignedCheckpoint } from "../src/core/types.js";

const created: string[] = [];

// Registered when a test file imports this module, so it runs after that file's tests.
afterAll(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh directory under the OS temp dir, removed when the test file finishes. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "temporal-sdk-test-"));
  created.push(dir);
  return dir;
}

export { ed25519KeyPair } from "../../../test/support/key-pair.js";

/** A clock that advances one millisecond per reading, from `start`. */
export function steppingClock(start: number): () => number {
  let now = start;
  return () => now++;
}

/** Asserts that `fn` throws a TemporalRangeError or TemporalTypeError with `code` and a message containing every fragment. */
export function expectError(fn: () => unknown, code: string, ...fragments: string[]): void {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown instanceof TemporalRangeError || thrown instanceof TemporalTypeError, String(thrown)).toBe(true);
  expect((thrown as { code: string }).code).toBe(code);
  for (const fragment of fragments) expect((thrown as Error).message).toContain(fragment);
}

/** Runs `use` with a local authority on `home` whose clock steps from `clockStart`, and closes it after. */
export async function withAuthority<T>(home: string, clockStart: number, use: (authority: LocalAuthority) => Promise<T>): Promise<T> {
  const authority = createLocalAuthority({ home, clock: steppingClock(clockStart) });
  try {
    return await use(authority);
  } finally {
    await authority.close();
  }
}

/** A loopback port nothing listens on: one the OS just handed out and that was closed again. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `checkpoint` with its note's issued time edited and its signature kept: a checkpoint its authority never signed. */
export function withEditedIssuedTime(checkpoint: SignedCheckpoint, issuedUnixMs: number): SignedCheckpoint {
  return signedCheckpointOf(checkpoint.note.replace(/temporal-issued -?\d+\n/, `temporal-issued ${issuedUnixMs}\n`));
}
