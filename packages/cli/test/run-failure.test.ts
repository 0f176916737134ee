import { readFile } from "node:fs/promises";
import { TaskFailedError, type Verdict } from "@temporal/agent-sdk";
import { describe, expect, it } from "vitest";
import { EXIT_FAILURE, EXIT_USAGE } from "../src/errors.js";
import { classifyRunFailure } from "../src/commands/run-failure.js";

/** The exit status `temporalc run` stops with when task `t` of mission `m` threw `cause`. */
function exitForTaskCause(cause: unknown): number | undefined {
  return classifyRunFailure(new TaskFailedError("m", {} as Verdict, "t", cause, [], [], []))?.exit;
}

describe("a task that failed on storage is an I/O problem (exit 2), any other failure the mission's (exit 1)", () => {
  it("a failed system call, told by the SDK's errnoCode (a string code with a numeric errno), is exit 2", async () => {
    const missing = await readFile("/no/such/folder/file").catch((error: unknown) => error);
    expect(exitForTaskCause(missing)).toBe(EXIT_USAGE);
    // What makes it a system call is the errno, not which fields Node happened to add beside it.
    expect(exitForTaskCause(Object.assign(new Error("disk full"), { code: "ENOSPC", errno: -28 }))).toBe(EXIT_USAGE);
  });

  it("the SDK's storage codes are exit 2", () => {
    expect(exitForTaskCause(Object.assign(new Error("the home is locked"), { code: "HOME_LOCKED" }))).toBe(EXIT_USAGE);
  });

  it("anything else, also an error with an errno-like code or a syscall but no errno, is exit 1", () => {
    expect(exitForTaskCause(new Error("disk full"))).toBe(EXIT_FAILURE);
    expect(exitForTaskCause(Object.assign(new Error("not found"), { code: "ENOENT" }))).toBe(EXIT_FAILURE);
    expect(exitForTaskCause(Object.assign(new Error("write failed"), { code: "ENOSPC", syscall: "write" }))).toBe(EXIT_FAILURE);
    expect(exitForTaskCause("a string")).toBe(EXIT_FAILURE);
  });
});
