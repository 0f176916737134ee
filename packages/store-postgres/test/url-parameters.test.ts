import { describe, expect, it } from "vitest";
import { openPostgresStore } from "../src/index.js";

/** The error `openPostgresStore` throws for the URL, or undefined when it opens (nothing is connected at open). */
async function refusal(url: string): Promise<(Error & { code?: string }) | undefined> {
  try {
    await openPostgresStore({ url }).close();
    return undefined;
  } catch (error) {
    return error as Error & { code?: string };
  }
}

describe("openPostgresStore: timeout parameters in the URL", () => {
  // pg reads their leading digits: `15s` and `1e3` would be 15 ms and 1 ms, `abc` a query timeout that expires at once.
  it.each([
    "statement_timeout=15s",
    "statement_timeout=1e3",
    "query_timeout=abc",
    "query_timeout=-5",
    "idle_in_transaction_session_timeout=1.5",
    "lock_timeout=",
    "statement_timeout=2147483648",
    // pg's own timer takes the text "0" for 0 ms: every query would time out.
    "query_timeout=0",
    // pg takes the last of a repeated parameter.
    "statement_timeout=15000&statement_timeout=1e3",
  ])("refuses ?%s with INVALID_ARGUMENT naming the parameter", async (parameter) => {
    const refused = await refusal(`postgres://temporal:s3cret@db.internal/temporal?sslmode=disable&${parameter}`);
    expect(refused?.code).toBe("INVALID_ARGUMENT");
    expect(refused?.message).toContain(`has ${parameter.split("&").at(-1)}: give a whole number of milliseconds`);
    expect(refused?.message).not.toContain("s3cret");
  });

  it.each(["statement_timeout=15000&query_timeout=20000", "idle_in_transaction_session_timeout=0&lock_timeout=2147483647", "application_name=x"])("accepts ?%s", async (parameters) => {
    expect(await refusal(`postgres://temporal@db.internal/temporal?${parameters}`)).toBeUndefined();
  });
});

describe("openPostgresStore: files the URL names", () => {
  it.each(["sslrootcert", "sslcert", "sslkey"])("refuses ?%s naming a file that cannot be read, once, in words (pg failed every connection with ENOENT)", async (parameter) => {
    const refused = await refusal(`postgres://temporal:s3cret@db.internal/temporal?${parameter}=/nonexistent/file.pem`);
    expect(refused?.code).toBe("INVALID_ARGUMENT");
    expect(refused?.message).toMatch(new RegExp(`has ${parameter}=/nonexistent/file\\.pem, which cannot be read: no such file or folder$`));
    expect(refused?.message).not.toContain("s3cret");
  });

  it("takes a user name with no host, a Unix-domain socket's folder in ?host=, as pg does", async () => {
    expect(await refusal("postgres://temporal@/temporal?host=/var/run/postgresql")).toBeUndefined();
    // pg fills in an empty host only before a path: these it would refuse at the first connection.
    for (const url of ["postgres://temporal@?host=/var/run/postgresql", "postgres://temporal@"]) expect((await refusal(url))?.code, url).toBe("INVALID_ARGUMENT");
  });
});
