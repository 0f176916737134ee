import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach } from "vitest";

/**
 * A fresh empty folder for each test of the calling file, under one temp
 * folder removed when the file's tests end. Read `current()` inside a test.
 */
export function folderPerTest(prefix: string): { current: () => string } {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  let dir = "";
  let n = 0;
  beforeEach(() => {
    dir = join(scratch, `case-${n++}`);
    mkdirSync(dir);
  });
  return { current: () => dir };
}
