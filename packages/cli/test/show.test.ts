import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { diagnose } from "@temporal/compiler";
import { dialSvg, missionDials } from "@temporal/language-service";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, runCli, runCliAsync } from "./run-cli.js";
import { folderPerTest } from "./scratch.js";

const folder = folderPerTest("temporalc-show-");
const backup = join(REPO_ROOT, "examples/nightly-backup.mission");
const ops = join(REPO_ROOT, "examples/ops.mission");
// 23:30 UTC is 01:30 in Z1 (UTC+2) and 18:30 in New York (UTC-5).
const AT = "2026-11-22T23:30:00Z";
const NEW_YORK = { TZ: "America/New_York" };

/** The bar under a mission's heading: the line after its first row of hours. */
function barOf(stdout: string, mission: string): string {
  const lines = stdout.split("\n");
  const heading = lines.findIndex((line) => line.startsWith(`${mission}  `));
  expect(heading, stdout).toBeGreaterThanOrEqual(0);
  return lines[heading + 2]!.trim();
}

describe("temporalc show", () => {
  it("draws the windows on the anchored clock, now, the hours of Z1, UTC and the viewer, and when it closes", () => {
    const result = runCli(["show", backup, "--at", AT], { env: NEW_YORK });
    expect(result.code, result.stderr).toBe(0);
    const bar = barOf(result.stdout, "nightly_backup");
    // 48 half hours from 00:00 Z1: 20:00 to 02:00 open (02:00 itself is in the window, so 02:00-02:30 is partly open).
    expect(bar).toBe(`${"█".repeat(4)}▒${"·".repeat(35)}${"█".repeat(8)}`);
    expect(result.stdout).toContain(
      `nightly_backup  [20:00, 02:00]\n  Z1 (UTC+2)        00    03    06    09    12    15    18    21\n                    ${bar}\n                       ^ now\n`,
    );
    // UTC's midnight is 02:00 in Z1 (cell 4); New York's 18:00 is 01:00 in Z1 (cell 2).
    expect(result.stdout).toContain("\n  UTC                   00    03    06    09    12    15    18    21\n  America/New_York    18    21    00");
    expect(result.stdout).toContain("open now, closes at 02:00 Z1 (UTC+2) (00:00 UTC), in 30 min; and only if carbon < 250 when it runs\n");
    expect(result.stdout).not.toContain("\u001b[");
    // The README and docs/compiling.md show this very output.
    for (const doc of ["README.md", "docs/compiling.md"]) {
      const markdown = readFileSync(join(REPO_ROOT, doc), "utf8");
      const shown = /\$ TZ=America\/New_York (?:npx )?temporalc show examples\/nightly-backup\.mission --at 2026-11-22T23:30:00Z\n([\s\S]*?)```/.exec(markdown);
      expect(shown?.[1], doc).toBe(result.stdout.replace(backup, "examples/nightly-backup.mission"));
    }
  }, 30_000);

  it("says when a closed mission opens, for one mission with --mission; colour only when forced", () => {
    const result = runCli(["show", ops, "--at", AT, "--mission", "rotate_keys"], { env: { TZ: "UTC", FORCE_COLOR: "1" } });
    expect(result.code, result.stderr).toBe(0);
    // 23:30 UTC is 19:30 in Z10 (UTC-4): [08:00, 09:00] opens in 12 h 30 min, at 12:00 UTC.
    expect(result.stdout).toContain("closed, opens at 08:00 Z10 (UTC-4) (12:00 UTC), in 12 h 30 min");
    expect(result.stdout).not.toContain("vacuum_database");
    expect(result.stdout).toContain("\u001b[32m█");
  }, 30_000);

  it("--svg writes exactly dialSvg of the same file, instant and zone; --json prints the same dial", () => {
    const out = join(folder.current(), "dial.svg");
    const result = runCli(["show", backup, "--at", AT, "--svg", out, "--json"], { env: NEW_YORK });
    expect(result.code, result.stderr).toBe(0);
    const expected = missionDials(diagnose(readFileSync(backup, "utf8"), backup).model, { at: Date.parse(AT), viewerTimeZone: "America/New_York" })!;
    expect(readFileSync(out, "utf8")).toBe(dialSvg(expected));
    expect(JSON.parse(result.stdout)).toEqual({ file: backup, dial: expected });
  }, 30_000);

  it("a daylight-saving note for an IANA anchor", () => {
    const file = join(folder.current(), "paris.mission");
    writeFileSync(file, "@temporal v4.6.2\n@anchor Europe/Paris\nmission early_sync {\n  require phase [02:30, 04:00]\n  on ALLOW { execute sync }\n}\n");
    const result = runCli(["show", file, "--at", "2027-03-20T12:00:00Z"], { env: { TZ: "UTC" } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("note: Clocks go forward 1 h on 2027-03-28 (02:00 to 03:00 is skipped in Europe/Paris)");
    expect(result.stdout).toContain("early_sync opens at 02:30, which does not exist that day");
  }, 30_000);

  it("errors: a file with errors shows its diagnostics (exit 1); usage problems name a code (exit 2), never a stack", async () => {
    const broken = join(folder.current(), "broken.mission");
    writeFileSync(broken, "@temporal v4.6.2\nmission m { require phase [300 30 }\n");
    const invalid = runCli(["show", broken]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("error[M102]: expected `,`, found `30`");
    expect(invalid.stderr).toContain("has 2 errors; fix them to see its dial (MISSION_FILE_INVALID)");
    expect(invalid.stdout).toBe("");

    // Read as check reads files: bytes that are not text are one M106, not a hundred syntax errors; run alike.
    const binary = join(folder.current(), "image.mission");
    writeFileSync(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
    for (const command of ["show", "run"]) {
      const notText = runCli([command, binary, "--at", "2026-11-26T12:00:00Z"]);
      expect(notText.code, command).toBe(1);
      expect(notText.stderr).toContain("error[M106]");
      expect(notText.stderr).not.toContain("M102");
    }

    const cases: [string[], string][] = [
      [["show", join(folder.current(), "missing.mission")], "missing.mission: no such file or folder (FILE_NOT_FOUND)"],
      [["show", folder.current()], "(FILE_UNREADABLE)"],
      [["show", backup, "--at", "yesterday"], '--at "yesterday" is not an ISO 8601 time with a zone'],
      [["show", ops, "--mission", "nope"], 'no mission named "nope"; this file has rotate_keys, vacuum_database, heartbeat (MISSION_NOT_FOUND)'],
      [["show", backup, "--svg", join(folder.current(), "no/such/dir.svg")], "(WRITE_FAILED)"],
    ];
    // Side by side: each is a separate process, and none depends on another.
    const results = await Promise.all(cases.map(([args]) => runCliAsync(args)));
    results.forEach((result, index) => {
      const [args, message] = cases[index]!;
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toMatch(/\n\s+at |unexpected error/);
    });
    expect(results[2]!.stderr).toContain("(INVALID_TIME)");
  }, 90_000);

  it("--json: every stop is also one object { error: { code, message, diagnostics? } } on stdout, as run --json, with the same exit status", async () => {
    const broken = join(folder.current(), "broken.mission");
    writeFileSync(broken, "@temporal v4.6.2\nmission m { require phase [300 30 }\n");
    const cases: [string[], string, number][] = [
      [["show", broken], "MISSION_FILE_INVALID", 1],
      [["show", join(folder.current(), "missing.mission")], "FILE_NOT_FOUND", 2],
      [["show", backup, "--at", "yesterday"], "INVALID_TIME", 2],
      [["show", ops, "--mission", "nope"], "MISSION_NOT_FOUND", 2],
    ];
    const results = await Promise.all(cases.map(([args]) => runCliAsync([...args, "--json"])));
    results.forEach((result, index) => {
      const [args, code, exit] = cases[index]!;
      expect(result.code, args.join(" ")).toBe(exit);
      const { error } = JSON.parse(result.stdout) as { error: { code: string; message: string; diagnostics?: { code: string; file: string; range: { start: { line: number } } }[] } };
      expect(error.code).toBe(code);
      // The message is the line on stderr without its code, which `code` carries.
      expect(result.stderr).toContain(`temporalc: ${error.message} (${code})\n`);
      expect(error.message).not.toContain(code);
      expect(error.diagnostics === undefined).toBe(code !== "MISSION_FILE_INVALID");
    });
    const { error } = JSON.parse(results[0]!.stdout) as { error: { diagnostics: { code: string; file: string; range: { start: { line: number; column: number } } }[] } };
    expect(error.diagnostics.map((d) => d.code)).toContain("M102");
    expect(error.diagnostics[0]).toMatchObject({ file: broken, severity: "error", range: { start: { line: expect.any(Number) as number } } });
  }, 90_000);

  it("a TZ the engine cannot name (empty: Etc/Unknown) is read as UTC", () => {
    const result = runCli(["show", ops, "--at", AT, "--mission", "heartbeat"], { env: { TZ: "" } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("(23:30 UTC, 23:30 UTC)");
    expect(result.stdout).toContain("open all day");
  }, 30_000);

  it("--help teaches with an example", () => {
    const help = runCli(["show", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("$ TZ=America/New_York temporalc show examples/nightly-backup.mission --at 2026-11-22T23:30:00Z");
    expect(help.stdout).toContain("--svg <file>");
  }, 30_000);
});
