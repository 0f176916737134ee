import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalAuthority } from "@temporal/agent-sdk/node";
import { verifyQuantumResult, type AllowVerdict, type DelayVerdict } from "../src/index.js";

const BIN = new URL("../bin/temporal-quantum.js", import.meta.url).pathname;
const INSIDE = "2026-01-01T14:00:00Z"; // phase 210 deg
const run = promisify(execFile);

/** Runs the built CLI as a child process; never throws on a non-zero exit. */
async function cli(args: readonly string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, TEMPORAL_HOME: "" } });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { status: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "temporal-quantum-cli-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("temporal-quantum run", () => {
  it("ALLOW: exit 0, the verdict as JSON, anchored in the home so that it verifies with the home's public key", async () => {
    const home = join(dir, "allow");
    const { status, stdout, stderr } = await cli(["run", "--tasks", "2", "--slots", "3", "--zne", "--seed", "5", "--at", INSIDE, "--home", home, "--json"]);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    const verdict = JSON.parse(stdout) as AllowVerdict;
    expect(verdict.verdict).toBe("ALLOW");
    expect(verdict.result.qaoa.zne?.extrapolation).toBe("richardson");
    expect(verdict.result.schedule.conflicts).toEqual([]);
    const authority = createLocalAuthority({ home });
    try {
      const key = Object.values(await authority.publicKeys())[0]!;
      expect((await verifyQuantumResult(verdict.result, verdict.receipt, verdict.proof, key)).valid).toBe(true);
      expect((await authority.verifyAnchored(verdict.receipt, verdict.proof)).valid).toBe(true);
    } finally {
      await authority.close();
    }
  });

  it("ALLOW without --json: the schedule slot by slot and the anchor", async () => {
    const { status, stdout } = await cli(["run", "--tasks", "2", "--slots", "2", "--seed", "1", "--at", INSIDE, "--home", join(dir, "text")]);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^ALLOW: 2 tasks in 2 slots, 4 qubits, QAOA p=1 on statevector/);
    expect(stdout).toContain("slot 0 2026-01-01T14:00:00.000Z (phase 217.5 deg)");
    expect(stdout).toMatch(/anchored: quantum\.schedule\.v1 tile \d+ leaf 0, action hash [0-9a-f]{64}/);
  });

  it("DELAY: exit 3 with the reason and the recommended start", async () => {
    const { status, stdout } = await cli(["run", "--tasks", "2", "--slots", "2", "--at", "2026-01-01T06:00:00Z", "--home", join(dir, "delay"), "--json"]);
    expect(status).toBe(3);
    expect(JSON.parse(stdout)).toMatchObject({ verdict: "DELAY", reason: "PHASE_SUBOPTIMAL", recommended_start_utc: "2026-01-01T13:20:00.000Z" } satisfies Partial<DelayVerdict>);
  });

  it("--carbon-aware reads a Carbon Aware SDK forecast file and delays for a much cleaner slot", async () => {
    const file = join(dir, "forecast.json");
    const start = Date.parse(INSIDE);
    const forecastData = [600, 500, 120].map((value, i) => ({ timestamp: new Date(start + i * 3_600_000).toISOString(), duration: 60, value }));
    await writeFile(file, JSON.stringify([{ location: "westus", forecastData }]));
    const { status, stdout } = await cli(["run", "--tasks", "2", "--slots", "3", "--carbon-aware", "--forecast", file, "--at", INSIDE, "--home", join(dir, "carbon")]);
    expect(status).toBe(3);
    expect(stdout).toBe("DELAY CARBON_SUBOPTIMAL: phase 210 deg (the coming hour 600 gCO2eq/kWh, the cleanest slot 120); retry at 2026-01-01T16:00:00.000Z\n");
  });

  it("usage errors: exit 2, one clear line and the help hint, no stack trace", async () => {
    const bad: [string[], RegExp][] = [
      [["run", "--tasks", "2"], /required option '--slots <n>' not specified/],
      [["run", "--tasks", "two", "--slots", "2"], /--tasks must be an integer 1\.\.20/],
      [["run", "--tasks", "2", "--slots", "2", "--backend", "ibm"], /UNKNOWN_BACKEND: .*known backends: statevector, statevector-noisy/],
      [["run", "--tasks", "5", "--slots", "5"], /TOO_LARGE: .*25 qubits/],
      [["run", "--tasks", "2", "--slots", "2", "--carbon-aware"], /INVALID_ARGUMENT: --carbon-aware needs --forecast/],
      [["run", "--tasks", "2", "--slots", "2", "--carbon-aware", "--forecast", join(dir, "missing.json")], /cannot read the forecast .*missing\.json/],
      [["run", "--tasks", "2", "--slots", "2", "--zone", "Z12"], /INVALID_ZONE/],
      [["run", "--tasks", "2", "--slots", "2", "--at", "yesterday"], /--at <iso>.*ISO 8601/],
      [["launch"], /unknown command 'launch'/],
    ];
    // in parallel: each is a Node start-up, most of the time spent
    const results = await Promise.all(bad.map(([args]) => cli([...args, "--home", join(dir, "usage")])));
    results.forEach(({ status, stdout, stderr }, i) => {
      const [args, message] = bad[i]!;
      expect(status, args.join(" ")).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toMatch(message);
      expect(stderr).toMatch(/Try 'temporal-quantum( run)? --help'/);
      expect(stderr).not.toMatch(/\n\s+at /);
    });
  }, 60_000);

  it("--help teaches: what it does, exit statuses, examples", async () => {
    const { status, stdout } = await cli(["run", "--help"]);
    expect(status).toBe(0);
    expect(stdout).toContain("[200, 280]");
    expect(stdout).toContain("Exit status: 0 ALLOW");
    expect(stdout).toContain("$ temporal-quantum run --tasks");
  });
});
