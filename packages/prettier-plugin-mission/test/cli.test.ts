import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goldenFixtures, PACKAGE_DIR } from "./helpers.js";

/**
 * The real Prettier CLI, loading the built plugin the way users do: by
 * package name, from `--plugin` or from a configuration file. The files live
 * in a temporary directory inside the package, so that Node resolves
 * `prettier-plugin-mission` from the workspace's node_modules; it is removed
 * afterwards.
 */

const PRETTIER_BIN = join(createRequire(import.meta.url).resolve("prettier/package.json"), "..", "bin", "prettier.cjs");

function newestMtime(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => statSync(join(e.parentPath, e.name)).mtimeMs),
  );
}

function prettier(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [PRETTIER_BIN, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const golden = Object.fromEntries(goldenFixtures().map((f) => [f.name, f]));
const messy = golden["messy-spacing"]!;
const comments = golden["comments-everywhere"]!;
const BROKEN = "@temporal v4.6.2\n\nmission broken {\n  require phase [300, 30\n  on ALLOW { execute a }\n}\n";

let dir: string;

beforeAll(() => {
  const buildInfo = join(PACKAGE_DIR, "tsconfig.tsbuildinfo");
  let built = 0;
  try {
    built = statSync(buildInfo).mtimeMs;
  } catch {
    // not built
  }
  if (built < newestMtime(join(PACKAGE_DIR, "src"))) {
    throw new Error("packages/prettier-plugin-mission/dist is missing or older than src: run `npx tsc -b packages/prettier-plugin-mission` (npm test builds first)");
  }
  dir = mkdtempSync(join(PACKAGE_DIR, ".cli-test-"));
});

afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe("prettier --plugin prettier-plugin-mission", () => {
  it("--check passes a formatted file and fails an unformatted one", () => {
    writeFileSync(join(dir, "formatted.mission"), messy.output);
    writeFileSync(join(dir, "messy.mission"), messy.input);
    expect(prettier(dir, "--plugin", "prettier-plugin-mission", "--check", "formatted.mission").status).toBe(0);
    const check = prettier(dir, "--plugin", "prettier-plugin-mission", "--check", "messy.mission");
    expect(check.status).toBe(1);
    expect(check.stderr).toContain("messy.mission");
  });

  it("--write formats the file in place", () => {
    writeFileSync(join(dir, "comments.mission"), comments.input);
    const result = prettier(dir, "--plugin", "prettier-plugin-mission", "--write", "comments.mission");
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(dir, "comments.mission"), "utf8")).toBe(comments.output);
  });

  it("--debug-check finds the tree unchanged", () => {
    writeFileSync(join(dir, "debug.mission"), comments.input);
    const result = prettier(dir, "--plugin", "prettier-plugin-mission", "--debug-check", "debug.mission");
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(dir, "debug.mission"), "utf8")).toBe(comments.input);
  });

  it("--write leaves a file with a syntax error byte for byte as it was, reports the diagnostic and exits 2", () => {
    const file = join(dir, "broken.mission");
    writeFileSync(file, BROKEN);
    const result = prettier(dir, "--plugin", "prettier-plugin-mission", "--write", "broken.mission");
    expect(result.status).toBe(2);
    expect(readFileSync(file, "utf8")).toBe(BROKEN);
    expect(result.stderr).toContain("broken.mission: SyntaxError: error[M102]: expected `]`, found `on`");
    // Prettier's own code frame, from the error's `loc`, points at the same token.
    expect(result.stderr).toContain("> 5 |   on ALLOW { execute a }\n[error]     |   ^^");
  });
});

describe('a configuration with "plugins": ["prettier-plugin-mission"] and nothing else', () => {
  let project: string;

  beforeAll(() => {
    project = join(dir, "project");
    mkdirSync(join(project, "missions"), { recursive: true });
    writeFileSync(join(project, ".prettierrc.json"), '{ "plugins": ["prettier-plugin-mission"] }\n');
    writeFileSync(join(project, "missions", "messy.mission"), messy.input);
    writeFileSync(join(project, "missions", "comments.mission"), comments.input);
  });

  it("finds .mission files by extension and formats them", () => {
    const check = prettier(project, "--check", ".");
    expect(check.status).toBe(1);
    expect(check.stderr).toContain("missions/messy.mission");
    expect(check.stderr).toContain("missions/comments.mission");

    const write = prettier(project, "--write", ".");
    expect(write.status, write.stderr).toBe(0);
    expect(readFileSync(join(project, "missions", "messy.mission"), "utf8")).toBe(messy.output);
    expect(readFileSync(join(project, "missions", "comments.mission"), "utf8")).toBe(comments.output);

    expect(prettier(project, "--check", ".").status).toBe(0);
  });

  it("reports a syntax error and leaves the file alone", () => {
    const file = join(project, "missions", "broken.mission");
    writeFileSync(file, BROKEN);
    const result = prettier(project, "--write", "missions/broken.mission");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("error[M102]");
    expect(readFileSync(file, "utf8")).toBe(BROKEN);
  });
});
