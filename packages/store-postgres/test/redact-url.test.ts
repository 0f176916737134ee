import { describe, expect, it } from "vitest";
import { redactUrl } from "../src/index.js";

describe("redactUrl", () => {
  it("replaces the password, in the user part or as a parameter, and keeps everything else", () => {
    expect(redactUrl("postgres://alice:p%40ss@db.internal:5433/temporal?sslmode=require")).toBe("postgres://alice:***@db.internal:5433/temporal?sslmode=require");
    expect(redactUrl("postgresql://db/temporal?user=bob&password=hunter2")).toBe("postgresql://db/temporal?user=bob&password=***");
    expect(redactUrl("postgres://carol@db/temporal")).toBe("postgres://carol@db/temporal");
    // A user and no host (a Unix-domain socket named by ?host=), which pg takes and the WHATWG URL parser refuses.
    expect(redactUrl("postgres://dave:hunter2@/temporal?host=/var/run/postgresql")).toBe("postgres://dave:***@/temporal?host=/var/run/postgresql");
    expect(redactUrl("postgres://@/temporal")).toBe("postgres:///temporal");
  });

  it("never echoes what is not a URL", () => {
    expect(redactUrl("hunter2")).toBe("(an invalid PostgreSQL URL)");
    // A URL to the WHATWG parser (scheme "summer"), but no "scheme://": a password pasted in the wrong place.
    expect(redactUrl("Summer:2024!")).toBe("(an invalid PostgreSQL URL)");
  });
});
