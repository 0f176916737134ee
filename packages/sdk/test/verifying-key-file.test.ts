import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KeyFileUnreadableError, createSigningKeyFile, readVerifyingKeyFile } from "../src/node/index.js";
import { tempDir } from "./helpers.js";

/** Whether a mode of 000 stops this process reading a file: not as root (which reads anything) and not on Windows. */
const permissionsBind = process.getuid?.() !== 0 && process.platform !== "win32";
const EACCES_MESSAGE = "permission denied; let this process read it (check the file's owner and permissions)";

describe("readVerifyingKeyFile", () => {
  it("reads the public half of a private key file", async () => {
    const path = join(await tempDir(), "key.pem");
    const created = await createSigningKeyFile(path);
    expect((await readVerifyingKeyFile(path)).key_id).toBe(created.verifying.key_id);
  });

  it("a file it cannot read is KEY_MISSING, with the errno code in `reason` and why in words in the message", async () => {
    const dir = await tempDir();
    const folder = join(dir, "folder.pem");
    await mkdir(folder);
    for (const [path, reason, why] of [
      [join(dir, "missing.pem"), "ENOENT", "no such file or folder; give the path of the key's PEM file"],
      [folder, "EISDIR", "it is a folder; give the path of the key's PEM file, not of a folder"],
    ] as const) {
      const error = await readVerifyingKeyFile(path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KeyFileUnreadableError);
      expect(error).toMatchObject({ code: "KEY_MISSING", reason, path });
      expect((error as Error).message).toBe(`key file ${path} cannot be read: ${why}`);
    }
  });

  it.runIf(permissionsBind)("a key file this process may not read (mode 000) is KEY_MISSING with reason EACCES: fix its permissions, not its path", async () => {
    const path = join(await tempDir(), "locked.pem");
    await createSigningKeyFile(path);
    await chmod(path, 0o000);
    const error = await readVerifyingKeyFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeyFileUnreadableError);
    expect(error).toMatchObject({ code: "KEY_MISSING", reason: "EACCES", path });
    expect((error as Error).message).toBe(`key file ${path} cannot be read: ${EACCES_MESSAGE}`);
  });

  it.skipIf(permissionsBind)("a key file this process may not read says to fix its permissions, not its path (the error as built for EACCES)", () => {
    // As root (or on Windows) no mode stops the read, so the case above cannot happen here: this pins its message at least.
    expect(new KeyFileUnreadableError("k.pem", "EACCES").message).toBe(`key file k.pem cannot be read: ${EACCES_MESSAGE}`);
  });

  it("a file that is not an Ed25519 PEM key is KEY_INVALID", async () => {
    const path = join(await tempDir(), "junk.pem");
    await writeFile(path, "not a key");
    await expect(readVerifyingKeyFile(path)).rejects.toMatchObject({ code: "KEY_INVALID" });
    await expect(readVerifyingKeyFile(path)).rejects.not.toBeInstanceOf(KeyFileUnreadableError);
  });
});
