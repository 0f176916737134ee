import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KeyFileUnreadableError, createSigningKeyFile, readVerifyingKeyFile } from "../src/node/index.js";
import { tempDir } from "./helpers.js";

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
      [folder, "EISDIR", "is a folder; give the path of the key's PEM file, not of a folder"],
    ] as const) {
      const error = await readVerifyingKeyFile(path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KeyFileUnreadableError);
      expect(error).toMatchObject({ code: "KEY_MISSING", reason, path });
      expect((error as Error).message).toBe(`key file ${path} cannot be read: ${why}`);
    }
  });

  it("a key file this process may not read says to fix its permissions, not its path", () => {
    // As root no permission bit stops a read, so the error is built as readVerifyingKeyFile builds it for EACCES.
    expect(new KeyFileUnreadableError("k.pem", "EACCES").message).toBe("key file k.pem cannot be read: permission denied; let this process read it (check the file's owner and permissions)");
  });

  it("a file that is not an Ed25519 PEM key is KEY_INVALID", async () => {
    const path = join(await tempDir(), "junk.pem");
    await writeFile(path, "not a key");
    await expect(readVerifyingKeyFile(path)).rejects.toMatchObject({ code: "KEY_INVALID" });
    await expect(readVerifyingKeyFile(path)).rejects.not.toBeInstanceOf(KeyFileUnreadableError);
  });
});
