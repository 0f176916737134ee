import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

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

/** A clock that advances one millisecond per reading, from `start`. */
export function steppingClock(start: number): () => number {
  let now = start;
  return () => now++;
}
