import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canonicalJson, verifyZtt, type RunResult } from "@temporal/agent-sdk";
import { createLocalAuthority } from "@temporal/agent-sdk/node";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "temporalc-run-ztt-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const home = join(scratch, "home");
const args = ["run", "fixtures/valid/ztt-signed.mission", "--mission", "nightly_backup", "--tasks", "examples/tasks.mjs", "--at", "2026-11-22T23:30:00Z", "--home", home];

describe("temporalc run, a mission whose receipts are ZTT-signed", () => {
  it("prints the opening the signing key was certified for", () => {
    const result = runCli(args);
    expect(result.code).toBe(0);
    // 01:30 in Z1 is inside [300, 30], whose opening began at 20:00 Z1 (18:00 UTC) the day before.
    expect(result.stdout).toMatch(
      /\n {2}receipt ZTT-signed: window \[300, 30\] in Z1, open 2026-11-22T18:00:00.000Z to 2026-11-23T00:00:00.000Z; key [0-9a-f]{16} certified by [0-9a-f]{16}\n/,
    );
  });

  it("says so with --dry-run", () => {
    const result = runCli([...args, "--dry-run"]);
    expect(result.stdout).toContain("  would ZTT-sign: the receipt, with a key certified for the mission's window only\n");
  });

  it("writes the bundle with --json, and it verifies with the home's public keys alone", async () => {
    const result = runCli([...args, "--json"]);
    expect(result.code).toBe(0);
    const outcome = JSON.parse(result.stdout.slice(result.stdout.indexOf("{"))) as RunResult;
    const authority = createLocalAuthority({ home });
    try {
      const keys = Object.values(await authority.publicKeys());
      const verified = await verifyZtt(outcome.ztt![0]!, keys, { payload: canonicalJson(outcome.receipts[0]) });
      expect(verified).toMatchObject({ valid: true });
    } finally {
      await authority.close();
    }
  });
});
