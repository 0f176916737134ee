import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contextAt, createTsaeRequest, sha256Hex } from "../src/core/index.js";
import { createLocalAuthority } from "../src/node/index.js";
import { tempDir } from "./helpers.js";

const request = createTsaeRequest(contextAt(Date.UTC(2026, 10, 22, 23, 30), { zone: 1 }), { scope: "test.home.v1", action_hash_hex: sha256Hex("home") });

/** Issues one receipt in `home`, which creates the home and its key when missing, and returns the warnings Node emitted meanwhile. */
async function useHome(home: string): Promise<Error[]> {
  const warnings: Error[] = [];
  const listen = (warning: Error) => warnings.push(warning);
  process.on("warning", listen);
  const authority = createLocalAuthority({ home });
  try {
    await authority.issueReceipt(request);
  } finally {
    await authority.close();
    // warnings are emitted on the next tick
    await new Promise((resolve) => setImmediate(resolve));
    process.off("warning", listen);
  }
  return warnings;
}

const posixOnly = process.platform === "win32" ? it.skip : it;

describe("a home's files", () => {
  it("a new home gets a .gitignore of * and an owner-only key", async () => {
    const home = join(await tempDir(), "repo", ".temporal");
    expect(await useHome(home)).toEqual([]);
    expect((await readFile(join(home, ".gitignore"), "utf8")).split("\n")).toContain("*");
    if (process.platform !== "win32") {
      expect((await stat(join(home, "signing-key.pem"))).mode & 0o777).toBe(0o600);
      expect((await stat(home)).mode & 0o777).toBe(0o700);
    }
  });

  it("a home made by hand gets the .gitignore with its key, and a user's .gitignore is kept", async () => {
    const bare = join(await tempDir(), "bare");
    await mkdir(bare);
    await useHome(bare);
    expect(existsSync(join(bare, ".gitignore"))).toBe(true);

    const own = join(await tempDir(), "own");
    await mkdir(own);
    await writeFile(join(own, ".gitignore"), "clockchain.log\n");
    await useHome(own);
    expect(await readFile(join(own, ".gitignore"), "utf8")).toBe("clockchain.log\n");
  });

  posixOnly("a key file others can read is tightened to 0600, with a warning that names it", async () => {
    const home = join(await tempDir(), "home");
    await useHome(home);
    const key = join(home, "signing-key.pem");
    await chmod(key, 0o644);
    const warnings = await useHome(home);
    expect((await stat(key)).mode & 0o777).toBe(0o600);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: "TEMPORAL_KEY_MODE", message: expect.stringContaining(`signing key ${key} was readable by others (mode 0644); it is now 0600`) });
    // Once owner-only, no further warning.
    expect(await useHome(home)).toEqual([]);
  });
});
