/**
 * `temporalc ledger status|verify|repair|migrate`, run as a user would on
 * real homes: healthy, with a torn tail, with a byte flipped mid-file, and
 * in format 1 (the SDK's committed fixture).
 */
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextAt, createTsaeRequest, sha256Hex } from "@temporal/agent-sdk";
import { acquireLock, createLocalAuthority } from "@temporal/agent-sdk/node";
import { REPO_ROOT, runCli } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "temporalc-ledger-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const T0 = Date.UTC(2026, 2, 1, 8);
let healthy: Buffer;
let healthyHome: string;
let homes = 0;

/** Three records over two tiles, written by the SDK. */
async function writeHealthyHome(home: string): Promise<void> {
  let now = T0;
  const authority = createLocalAuthority({ home, clock: () => now++ });
  try {
    for (const zones of [[1, 2], [1], [2, 1]]) {
      const receipts = await Promise.all(
        zones.map((zone, i) => authority.issueReceipt(createTsaeRequest(contextAt(T0 + i, { zone }), { scope: "cli.ledger.v1", action_hash_hex: sha256Hex(`l${now}-${i}`) }))),
      );
      await Promise.all(receipts.map((receipt) => authority.anchor(receipt)));
    }
  } finally {
    await authority.close();
  }
}

/** A copy of the healthy home with `ledger` as its ledger. */
function homeWith(ledger: Buffer): string {
  const home = join(scratch, `home-${++homes}`);
  mkdirSync(home, { mode: 0o700 });
  copyFileSync(join(healthyHome, "signing-key.pem"), join(home, "signing-key.pem"));
  writeFileSync(join(home, "clockchain.log"), ledger, { mode: 0o600 });
  return home;
}

const json = (stdout: string): Record<string, unknown> => JSON.parse(stdout) as Record<string, unknown>;

beforeAll(async () => {
  healthyHome = join(scratch, "healthy");
  await writeHealthyHome(healthyHome);
  healthy = readFileSync(join(healthyHome, "clockchain.log"));
}, 60_000);

// Each test spawns the CLI several times; the shared 2-core machine can make that slow.
const SLOW = 120_000;

/** A copy of the SDK's format-1 fixture home (written by the code before checkpoints) under the scratch folder. */
function format1Home(name: string): string {
  const fixture = join(REPO_ROOT, "packages/sdk/test/fixtures/format1-home");
  const home = join(scratch, name);
  mkdirSync(home, { mode: 0o700 });
  for (const file of ["clockchain.log", "signing-key.pem"]) copyFileSync(join(fixture, file), join(home, file));
  chmodSync(join(home, "signing-key.pem"), 0o600);
  return home;
}

describe("temporalc ledger", () => {
  it(
    "reports a healthy home: status with counts, format and lock holder; verify exit 0; repair and migrate have nothing to do",
    async () => {
      const status = runCli(["ledger", "status", "--home", healthyHome, "--json"]);
      expect(status.code, status.stderr).toBe(0);
      expect(json(status.stdout)).toMatchObject({ format: 2, size: healthy.length, records: 3, anchors: 5, tiles: 2, lock_holder: null, torn_tail: null, last_checkpoint: { sequence: 4 } });
      const text = runCli(["ledger", "status", "--home", healthyHome]);
      expect(text.stdout).toContain("3 records, 5 anchors in 2 tiles");
      expect(text.stdout).toContain("lock free");
      const lock = await acquireLock(join(healthyHome, "lock"));
      try {
        const held = json(runCli(["ledger", "status", "--home", healthyHome, "--json"]).stdout);
        expect(held.lock_holder).toMatchObject({ pid: process.pid, since_unix_ms: expect.any(Number) });
      } finally {
        await lock.release();
      }
      const verify = runCli(["ledger", "verify", "--home", healthyHome]);
      expect(verify.code, verify.stderr).toBe(0);
      expect(verify.stdout).toMatch(/^valid: 3 records, 5 anchors in 2 tiles/);
      expect(json(runCli(["ledger", "repair", "--home", healthyHome, "--json"]).stdout)).toMatchObject({ repaired: false, records: 3 });
      const migrate = runCli(["ledger", "migrate", "--home", healthyHome]);
      expect(migrate.code).toBe(0);
      expect(migrate.stdout).toContain("already in format 2");
      expect(readFileSync(join(healthyHome, "clockchain.log"))).toEqual(healthy);
    },
    SLOW,
  );

  it(
    "finds a torn tail (verify exit 1), and repair removes it after saving it, leaving a valid ledger",
    () => {
      const tail = healthy.subarray(0, 40);
      const home = homeWith(Buffer.concat([healthy, tail]));
      const verify = runCli(["ledger", "verify", "--home", home, "--json"]);
      expect(verify.code).toBe(1);
      expect(json(verify.stdout)).toMatchObject({ valid: false, reason: "TORN_TAIL", offset: healthy.length, bytes: 40 });
      const repair = runCli(["ledger", "repair", "--home", home, "--json"]);
      expect(repair.code, repair.stderr).toBe(0);
      const result = json(repair.stdout);
      expect(result).toMatchObject({ repaired: true, offset: healthy.length, bytes: 40 });
      expect(readFileSync(result.saved_to as string)).toEqual(tail);
      expect(readFileSync(join(home, "clockchain.log"))).toEqual(healthy);
      expect(runCli(["ledger", "verify", "--home", home]).code).toBe(0);
    },
    SLOW,
  );

  it(
    "reports a flipped byte mid-file with its record's offset (exit 1), and repair refuses it leaving the file untouched",
    () => {
      const damaged = Buffer.from(healthy);
      const middle = Math.floor(healthy.length / 2);
      damaged[middle] = (damaged[middle] as number) ^ 0x01;
      const home = homeWith(damaged);
      const verify = runCli(["ledger", "verify", "--home", home, "--json"]);
      expect(verify.code).toBe(1);
      const report = json(verify.stdout);
      expect(report).toMatchObject({ valid: false, reason: "RECORD_CHECKSUM" });
      expect(report.offset as number).toBeLessThanOrEqual(middle);
      expect(report.offset as number).toBeGreaterThan(0);
      const text = runCli(["ledger", "verify", "--home", home]);
      expect(text.stdout).toContain(`at byte ${report.offset as number}`);
      const repair = runCli(["ledger", "repair", "--home", home]);
      expect(repair.code).toBe(1);
      expect(repair.stdout).toContain("cannot be a torn final write");
      expect(readFileSync(join(home, "clockchain.log"))).toEqual(damaged);
      expect(readdirSync(home).sort()).toEqual(["clockchain.log", "signing-key.pem"]);
    },
    SLOW,
  );

  it("refuses a home that is not there (a mistyped --home), for every command, rather than calling its ledger empty", () => {
    const missing = join(scratch, "no-such-home");
    for (const command of ["status", "verify", "repair", "migrate"]) {
      const result = runCli(["ledger", command, "--home", missing]);
      expect(result.code, command).toBe(2);
      expect(result.stdout, command).toBe("");
      expect(result.stderr, command).toContain(`no home at ${missing}: no such file or folder`);
      expect(result.stderr, command).toContain("FILE_NOT_FOUND");
    }
    // A home with no ledger yet is empty, as before.
    const fresh = join(scratch, "fresh-home");
    mkdirSync(fresh);
    expect(runCli(["ledger", "verify", "--home", fresh]).code).toBe(0);
  });

  it(
    "repair checks every record even where the home's saved state covers them: a flipped byte there is refused (exit 1), the file untouched",
    () => {
      // The whole home, with the state the authority saved when it closed, which lets an opening skip the records it covers.
      const home = join(scratch, "damaged-under-state");
      cpSync(healthyHome, home, { recursive: true });
      expect(readdirSync(home)).toContain("clockchain.snapshot");
      const damaged = Buffer.from(healthy);
      const middle = Math.floor(healthy.length / 2);
      damaged[middle] = (damaged[middle] as number) ^ 0x01;
      writeFileSync(join(home, "clockchain.log"), damaged);
      const repair = runCli(["ledger", "repair", "--home", home, "--json"]);
      expect(repair.code, repair.stdout + repair.stderr).toBe(1);
      expect(json(repair.stdout)).toMatchObject({ valid: false, reason: "RECORD_CHECKSUM" });
      expect(readFileSync(join(home, "clockchain.log"))).toEqual(damaged);
    },
    SLOW,
  );

  it(
    "migrates a format-1 home once, keeping a backup; verify and repair ask for the migration first",
    () => {
      const home = format1Home("format1");
      const original = readFileSync(join(home, "clockchain.log"));
      expect(json(runCli(["ledger", "status", "--home", home, "--json"]).stdout)).toMatchObject({ format: 1, migration_needed: true });
      for (const command of ["verify", "repair"]) {
        const refused = runCli(["ledger", command, "--home", home]);
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain(`temporalc ledger migrate --home ${home}`);
      }
      const migrate = runCli(["ledger", "migrate", "--home", home, "--json"]);
      expect(migrate.code, migrate.stderr).toBe(0);
      const result = json(migrate.stdout);
      expect(result).toMatchObject({ migrated: true, records: 6, anchors: 10, format: 2 });
      expect(readFileSync(result.backup as string)).toEqual(original);
      expect(runCli(["ledger", "verify", "--home", home]).code).toBe(0);
      const again = runCli(["ledger", "migrate", "--home", home]);
      expect(again.stdout).toContain("already in format 2");
      expect(readdirSync(home).filter((name) => name.endsWith(".bak"))).toHaveLength(1);
    },
    SLOW,
  );

  it(
    "migrates under the authority name given, and refuses a name a note key cannot carry",
    () => {
      const home = format1Home("format1-named");
      const refused = runCli(["ledger", "migrate", "--home", home, "--authority-name", "two words"]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("note key name");
      expect(readdirSync(home).filter((name) => name.endsWith(".bak"))).toHaveLength(0);
      expect(runCli(["ledger", "migrate", "--home", home, "--authority-name", "example.com/authority"]).code).toBe(0);
      const status = json(runCli(["ledger", "status", "--home", home, "--json"]).stdout) as { last_checkpoint: { origin: string; tile_id: number } };
      expect(status.last_checkpoint.origin).toBe(`example.com/authority/tile/${status.last_checkpoint.tile_id}`);
      expect(runCli(["ledger", "verify", "--home", home]).code).toBe(0);
    },
    SLOW,
  );

  it(
    "uses $TEMPORAL_HOME like temporalc run, and gives exit 2 for a ledger whose key is missing",
    () => {
      const status = runCli(["ledger", "status", "--json"], { env: { TEMPORAL_HOME: healthyHome } });
      expect(json(status.stdout)).toMatchObject({ home: healthyHome, records: 3 });
      const keyless = homeWith(healthy);
      rmSync(join(keyless, "signing-key.pem"));
      const verify = runCli(["ledger", "verify", "--home", keyless]);
      expect(verify.code).toBe(2);
      expect(verify.stderr).toMatch(/signing key .* is missing/);
    },
    SLOW,
  );
});
