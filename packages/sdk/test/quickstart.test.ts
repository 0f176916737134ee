import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { tempDir } from "./helpers.js";

vi.mock("@temporal/agent-sdk", () => import("../src/index.js"));

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const example = join(repo, "examples", "sdk-quickstart.mjs");

const EXPECTED_LINES = [
  /^phase \d+\.\d{3} deg in Z1 \(UTC .+\), tile \d+$/,
  /^(inside|outside) \[200,280\]/,
  /^enforce: PHASE_OUTSIDE_WINDOW, reopens in PT4M$/,
  /^receipt verifies: true$/,
  /^anchor verifies: true \(leaf 0 of 1 in tile \d+\)$/,
  /^tpe: (-?\d\.\d{3} ){5}-?\d\.\d{3}$/,
];

describe("examples/sdk-quickstart.mjs", () => {
  it("is the example shown in docs/sdk.md", async () => {
    const docs = await readFile(join(repo, "docs", "sdk.md"), "utf8");
    expect(docs).toContain(`\`\`\`js\n${await readFile(example, "utf8")}\`\`\``);
  });

  it("runs against the source with no server and no configuration", async () => {
    const home = join(await tempDir(), "home");
    vi.stubEnv("TEMPORAL_HOME", home);
    vi.stubEnv("TEMPORAL_URL", "");
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    try {
      await import(example);
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllEnvs();
    }
    expect(lines).toHaveLength(EXPECTED_LINES.length);
    lines.forEach((line, i) => expect(line).toMatch(EXPECTED_LINES[i] as RegExp));
    expect(existsSync(join(home, "clockchain.log"))).toBe(true);
  });

  // npm test builds first (pretest), so dist is the package a user gets.
  it("runs with node against the built package", async () => {
    const cwd = await tempDir();
    const env = { ...process.env, TEMPORAL_HOME: "", TEMPORAL_URL: "" };
    const { stdout } = await promisify(execFile)(process.execPath, [example], { cwd, env, timeout: 20_000 });
    const lines = stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(EXPECTED_LINES.length);
    lines.forEach((line, i) => expect(line).toMatch(EXPECTED_LINES[i] as RegExp));
    expect(existsSync(join(cwd, ".temporal", "clockchain.log"))).toBe(true);
  });
});
