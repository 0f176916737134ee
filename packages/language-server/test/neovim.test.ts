// A real editor: headless Neovim (Debian's `neovim`) attaches the server as its users do, through its built-in LSP
// client, and receives the diagnostics of a file with a mistake and a hover. Skipped, saying why, on a machine
// without nvim, but never in CI (CI=true), where .ci/run installs it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { serverBin } from "./lsp-process.js";

const nvim = spawnSync("nvim", ["--version"], { encoding: "utf8" });
const hasNvim = nvim.status === 0;
const skip = !hasNvim && process.env.CI !== "true";
if (skip) console.warn("skipping the Neovim test: nvim is not installed (apt-get install neovim; .ci/run installs it)");

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "language-server-nvim-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(skip)("Neovim with the language server", () => {
  it("shows the server's diagnostics and a hover with the window's clock times", () => {
    const file = join(tmp, "nightly.mission");
    const resultFile = join(tmp, "result.json");
    // The nightly example with one mistake: a carbon threshold that is not positive.
    writeFileSync(file, readFileSync(join(repo, "examples/nightly-backup.mission"), "utf8").replace("carbon < 250", "carbon < 0"));
    const run = spawnSync("nvim", ["--headless", "--clean", "-c", `luafile ${join(fileURLToPath(new URL(".", import.meta.url)), "neovim/attach.lua")}`], {
      env: { ...process.env, MISSION_FILE: file, MISSION_SERVER: serverBin, MISSION_RESULT: resultFile },
      encoding: "utf8",
      timeout: 40_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(readFileSync(resultFile, "utf8"));
    expect(result.timed_out).toBeUndefined();
    // Debian 12's Neovim 0.7 predates vim.lsp.start; the script uses it where it exists.
    expect(result.attached_with).toBe(Number(result.nvim.split(".")[1]) >= 8 ? "vim.lsp.start" : "vim.lsp.start_client");
    const line = readFileSync(file, "utf8")
      .split("\n")
      .findIndex((l) => l.includes("require carbon"));
    expect(result.diagnostics).toEqual([{ code: "M400", lnum: line, col: "  require carbon < ".length, severity: 1, message: expect.stringContaining("0") }]);
    expect(result.hover).toContain("| Z1 (UTC+2), the file's zone | 20:00 | 02:00 |");
  }, 60_000);
});
