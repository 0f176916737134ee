import { chmod, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DirectoryNotCreatedError, createLocalAuthority, makeDirectory } from "../src/node/index.js";
import { tempDir } from "./helpers.js";

const isRoot = process.getuid?.() === 0;

describe("makeDirectory", () => {
  it("creates every missing level and returns the first one it created", async () => {
    const root = await tempDir();
    const target = join(root, "a", "b", "c");
    expect(await makeDirectory(target)).toBe(join(root, "a"));
    expect((await stat(target)).isDirectory()).toBe(true);
  });

  it("gives every level it creates the mode asked for, and leaves an existing parent alone", async () => {
    const root = await tempDir();
    await chmod(root, 0o755);
    const target = join(root, "p", "q");
    await makeDirectory(target, { mode: 0o700 });
    for (const folder of [join(root, "p"), target]) expect((await stat(folder)).mode & 0o777).toBe(0o700 & ~process.umask());
    expect((await stat(root)).mode & 0o777).toBe(0o755);
  });

  it("returns undefined for a folder that already exists, and tolerates a racing creator", async () => {
    const root = await tempDir();
    expect(await makeDirectory(root)).toBeUndefined();
    const target = join(root, "x", "y", "z");
    const results = await Promise.all([makeDirectory(target), makeDirectory(target), makeDirectory(target)]);
    expect(results.filter((first) => first !== undefined).length).toBeGreaterThanOrEqual(1);
    expect((await stat(target)).isDirectory()).toBe(true);
  });

  it("names a file in the way, whether it is the target or a parent", async () => {
    const root = await tempDir();
    const file = join(root, "file");
    await writeFile(file, "x");
    for (const target of [file, join(file, "below", "deeper")]) {
      const error = await makeDirectory(target).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DirectoryNotCreatedError);
      // The errno code is a field; the message says why in words.
      expect(error).toMatchObject({ code: "DIRECTORY_NOT_CREATED", reason: "ENOTDIR", path: file });
      expect((error as Error).message).toBe(`cannot create the folder ${file}: a file is in the way: a part of the path is not a folder`);
    }
  });

  it("a path Node itself refuses (a NUL byte) keeps Node's message, which says what to fix; reason is UNKNOWN, as it carries no errno", async () => {
    const target = join(await tempDir(), "a\0b");
    const error = await makeDirectory(target).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DirectoryNotCreatedError);
    expect(error).toMatchObject({ code: "DIRECTORY_NOT_CREATED", reason: "UNKNOWN", path: target, cause: { code: "ERR_INVALID_ARG_VALUE" } });
    expect((error as Error).message).toBe(`cannot create the folder ${target}: ${((error as Error).cause as Error).message}`);
    expect((error as Error).message).toContain("without null bytes");
    expect((error as Error).message).not.toContain("unknown error");
  });

  it("a name too long for the file system: the errno's words, and the code in reason", async () => {
    const target = join(await tempDir(), "n".repeat(300), "below");
    const error = await makeDirectory(target).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "DIRECTORY_NOT_CREATED", reason: "ENAMETOOLONG" });
    expect((error as Error).message).toMatch(/: the name is too long$/);
  });

  it.runIf(process.platform === "linux")("fails at once under /proc, where recursive mkdir loops forever", async () => {
    const started = Date.now();
    const error = await makeDirectory("/proc/temporalc-test/x").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "DIRECTORY_NOT_CREATED", reason: "ENOENT", path: "/proc/temporalc-test" });
    expect((error as Error).message).toBe("cannot create the folder /proc/temporalc-test: the file system does not allow creating folders here");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it.skipIf(isRoot || process.platform === "win32")("reports permission denied with the folder it could not create", async () => {
    const root = await tempDir();
    const locked = join(root, "locked");
    await makeDirectory(locked);
    await chmod(locked, 0o555);
    try {
      const error = await makeDirectory(join(locked, "a", "b")).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "DIRECTORY_NOT_CREATED", reason: "EACCES", path: join(locked, "a") });
      expect((error as Error).message).toBe(`cannot create the folder ${join(locked, "a")}: permission denied`);
    } finally {
      await chmod(locked, 0o755);
    }
  });

  it("a local authority whose home cannot be created: ready() rejects with DirectoryNotCreatedError, the errno in `reason`", async () => {
    const file = join(await tempDir(), "file");
    await writeFile(file, "");
    const authority = createLocalAuthority({ home: join(file, "home") });
    try {
      const error = await authority.ready().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DirectoryNotCreatedError);
      expect(error).toMatchObject({ code: "DIRECTORY_NOT_CREATED", reason: "ENOTDIR", path: file });
    } finally {
      await authority.close();
    }
  });
});
