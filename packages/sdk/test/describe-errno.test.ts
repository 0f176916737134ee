import { readFile, stat, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { DirectoryNotCreatedError, describeErrno, describeIoError, errnoCode, makeDirectory } from "../src/node/index.js";
import { isErrno } from "../src/node/errors.js";
import { tempDir } from "./helpers.js";

describe("describeErrno", () => {
  it("says why a file system call failed in words, without the errno code", async () => {
    expect(describeErrno("ENOENT")).toBe("no such file or folder");
    expect(describeErrno("EACCES")).toBe("permission denied");
    expect(describeErrno("EROFS")).toBe("the file system is read-only");
    // The code of a real failure: reading a folder. The words read as a clause after "cannot read <file>:".
    const error = (await readFile(await tempDir()).catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect(describeErrno(error.code as string)).toBe("it is a folder");
  });

  it("a code it has no words for gets libuv's description (uv_strerror), not Node's message with the code in it", () => {
    expect(describeErrno("EIO")).toBe("i/o error");
    expect(describeErrno("ECONNREFUSED")).toBe("connection refused");
  });

  it("a code that is no errno is an unknown error, named by its code; so is a name of Object's prototype", () => {
    expect(describeErrno("ERR_FS_FILE_TOO_LARGE")).toBe("an unknown error (ERR_FS_FILE_TOO_LARGE)");
    expect(describeErrno("constructor")).toBe("an unknown error (constructor)");
  });
});

describe("errnoCode", () => {
  it("is the code of a failed system call, which carries a numeric errno", async () => {
    const missing = await stat(`${await tempDir()}/missing`).catch((e: unknown) => e);
    expect(errnoCode(missing)).toBe("ENOENT");
  });

  it("is undefined for Node's own ERR_... errors, which have a string code but no errno, and for whatever else was thrown", async () => {
    const nulByte = await stat("a\0b").catch((e: unknown) => e);
    expect(nulByte).toMatchObject({ code: "ERR_INVALID_ARG_VALUE" });
    expect(errnoCode(nulByte)).toBeUndefined();
    for (const other of [new Error("plain"), { code: "ENOENT" }, { code: "ENOENT", errno: "-2" }, "ENOENT", null, undefined]) expect(errnoCode(other)).toBeUndefined();
  });
});

describe("isErrno", () => {
  it("is errnoCode's test with the codes asked for: a failed system call with one of them", async () => {
    const missing = await stat(`${await tempDir()}/missing`).catch((e: unknown) => e);
    expect([isErrno(missing, "ENOENT"), isErrno(missing, "EEXIST", "ENOENT"), isErrno(missing, "EEXIST"), isErrno(missing)]).toEqual([true, true, false, false]);
    // Node's own ERR_... errors and errors that only carry a code are no failed system call, whatever code is asked.
    const nulByte = await stat("a\0b").catch((e: unknown) => e);
    expect(isErrno(nulByte, "ERR_INVALID_ARG_VALUE")).toBe(false);
    for (const other of [Object.assign(new Error("ENOENT: no such file"), { code: "ENOENT" }), { code: "ENOENT" }, "ENOENT", null, undefined]) expect(isErrno(other, "ENOENT")).toBe(false);
  });
});

describe("describeIoError", () => {
  it("says why a failed system call failed in describeErrno's words, without the errno code", async () => {
    const folder = await tempDir();
    expect(describeIoError(await stat(`${folder}/missing`).catch((e: unknown) => e))).toBe("no such file or folder");
    expect(describeIoError(await readFile(folder).catch((e: unknown) => e))).toBe("it is a folder");
  });

  it("anything else says why itself: Node's own ERR_... errors, makeDirectory's error (which names the folder), whatever else was thrown", async () => {
    const nulByte = (await stat("a\0b").catch((e: unknown) => e)) as Error;
    expect(describeIoError(nulByte)).toBe(nulByte.message);
    expect(describeIoError(nulByte)).toContain("without null bytes");
    const file = `${await tempDir()}/file`;
    await writeFile(file, "x");
    const notCreated = await makeDirectory(`${file}/below`).catch((e: unknown) => e);
    expect(notCreated).toBeInstanceOf(DirectoryNotCreatedError);
    expect(describeIoError(notCreated)).toBe(`cannot create the folder ${file}: a file is in the way: a part of the path is not a folder`);
    expect([describeIoError(Object.assign(new Error("disk on fire"), { code: "EIO" })), describeIoError("thrown text")]).toEqual(["disk on fire", "thrown text"]);
  });
});
