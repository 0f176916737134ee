import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

// A mission anchored to an IANA time zone is reported on that zone's wall clock, daylight saving included.
const scratch = mkdtempSync(join(tmpdir(), "temporalc-run-time-zone-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const home = join(scratch, "home");

function missionFile(name: string, window: string): string {
  const file = join(scratch, `${name}.mission`);
  const source = `@temporal v4.6.2\n@anchor Europe/Paris\n\nmission ${name} {\n  require phase ${window}\n  on ALLOW {\n    execute snapshot_db\n  }\n  on DENY {\n    anchor TSAE -> clockchain\n  }\n}\n`;
  writeFileSync(file, source);
  return file;
}

const backup = missionFile("paris_backup", "[20:00, 02:00]");
// 02:30 is skipped when Paris moves its clocks from 02:00 to 03:00 (2026-03-29, 01:00 UTC).
const earlySync = missionFile("early_sync", "[02:30, 04:00]");

function dryRun(file: string, at: string): string {
  const result = runCli(["run", file, "--at", at, "--home", home, "--dry-run"]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

const wouldAnchor = `  would run: nothing\n  would anchor: a receipt (TSAE) in the clockchain of home ${home}\n`;

describe("temporalc run speaks the clock of an IANA-anchored mission", () => {
  it("in winter (UTC+1): 20:00 in Paris is 19:00 UTC", () => {
    expect(dryRun(backup, "2026-01-15T18:25:00Z")).toBe(
      "paris_backup: DENY at 2026-01-15T18:25:00.000Z, phase 291.25° = 19:25 in Europe/Paris (UTC+1; receipts in Z1)\n" +
        "  PHASE_OUTSIDE_WINDOW: [20:00, 02:00] opens at 20:00 Europe/Paris (19:00 UTC), in 35 min (2026-01-15T19:00:00.000Z)\n" +
        wouldAnchor,
    );
  });

  it("in summer (UTC+2): 20:00 in Paris is 18:00 UTC", () => {
    expect(dryRun(backup, "2026-07-15T17:25:00Z")).toBe(
      "paris_backup: DENY at 2026-07-15T17:25:00.000Z, phase 291.25° = 19:25 in Europe/Paris (UTC+2; receipts in Z1)\n" +
        "  PHASE_OUTSIDE_WINDOW: [20:00, 02:00] opens at 20:00 Europe/Paris (18:00 UTC), in 35 min (2026-07-15T18:00:00.000Z)\n" +
        wouldAnchor,
    );
    expect(dryRun(backup, "2026-07-15T22:30:00Z")).toContain("paris_backup: ALLOW at 2026-07-15T22:30:00.000Z, phase 7.5° = 00:30 in Europe/Paris (UTC+2; receipts in Z1)\n");
  });

  it("across the March change: the clock jumps from 01:59 to 03:00, past the window's end and into a skipped start", () => {
    expect(dryRun(backup, "2026-03-29T00:59:00Z")).toContain("paris_backup: ALLOW at 2026-03-29T00:59:00.000Z, phase 29.75° = 01:59 in Europe/Paris (UTC+1; receipts in Z1)\n");
    expect(dryRun(backup, "2026-03-29T01:00:00Z")).toBe(
      "paris_backup: DENY at 2026-03-29T01:00:00.000Z, phase 45° = 03:00 in Europe/Paris (UTC+2; receipts in Z1)\n" +
        "  PHASE_OUTSIDE_WINDOW: [20:00, 02:00] opens at 20:00 Europe/Paris (18:00 UTC), in 17 h (2026-03-29T18:00:00.000Z)\n" +
        wouldAnchor,
    );
    // From midnight (UTC+1), 02:30 never comes that night: the window opens when the clock lands on 03:00, two real hours later.
    expect(dryRun(earlySync, "2026-03-28T23:00:00Z")).toBe(
      "early_sync: DENY at 2026-03-28T23:00:00.000Z, phase 0° = 00:00 in Europe/Paris (UTC+1; receipts in Z1)\n" +
        "  PHASE_OUTSIDE_WINDOW: [02:30, 04:00] opens at 03:00 Europe/Paris (01:00 UTC), in 2 h (2026-03-29T01:00:00.000Z)\n" +
        wouldAnchor,
    );
  });

  it("keeps the decision in --json as the SDK makes it: the SWT context and the zone's clock", () => {
    const result = runCli(["run", backup, "--at", "2026-01-15T18:25:00Z", "--home", home, "--dry-run", "--json"]);
    expect(JSON.parse(result.stdout)).toMatchObject({ ctx: { swt_zone: 1 }, clock: { time_zone: "Europe/Paris", phase_deg: 291.25 }, next_open_unix_ms: Date.parse("2026-01-15T19:00:00Z") });
  });
});
