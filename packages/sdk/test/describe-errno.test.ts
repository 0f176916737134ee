import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { describeErrno } from "../src/node/index.js";
import { tempDir } from "./helpers.js";

describe("describeErrno", () => {
  it("says why a file system call failed in words, without the errno code", async () => {
    expect(describeErrno("ENOENT")).toBe("no such file or folder");
    expect(describeErrno("EACCES")).toBe("permission denied");
    expect(describeErrno("EROFS")).toBe("the file system is read-only");
    // The code of a real failure: reading a folder.
    const error = (await readFile(await tempDir()).catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect(describeErrno(error.code as string)).toBe("is a folder");
  });

  it("a code it has no words for gets the operating system's description, not Node's message with the code in it", () => {
    expect(describeErrno("EIO")).toBe("i/o error");
    expect(describeErrno("ECONNREFUSED")).toBe("connection refused");
  });

  it("a code that is no errno is an unknown error, named by its code; so is a name of Object's prototype", () => {
    expect(describeErrno("ERR_FS_FILE_TOO_LARGE")).toBe("an unknown error (ERR_FS_FILE_TOO_LARGE)");
    expect(describeErrno("constructor")).toBe("an unknown error (constructor)");
  });
});
