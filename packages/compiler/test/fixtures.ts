import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const FIXTURES_DIR = fileURLToPath(new URL("../../../fixtures/", import.meta.url));

export interface Fixture {
  kind: "valid" | "invalid";
  name: string;
  /** Path relative to the repository root, used as the diagnostics' file name. */
  relativePath: string;
  path: string;
  source: string;
}

export function fixtures(kind: "valid" | "invalid"): Fixture[] {
  const dir = `${FIXTURES_DIR}${kind}/`;
  return readdirSync(dir)
    .filter((file) => file.endsWith(".mission"))
    .sort()
    .map((file) => ({
      kind,
      name: file,
      relativePath: `fixtures/${kind}/${file}`,
      path: dir + file,
      source: readFileSync(dir + file, "utf8"),
    }));
}

export function allFixtures(): Fixture[] {
  return [...fixtures("valid"), ...fixtures("invalid")];
}
