import { describe, expect, it } from "vitest";
import { redactUrl } from "../src/index.js";
import { isUnavailable, reasonOf } from "../src/store-errors.js";

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

describe("reasonOf", () => {
  it("gives the server's words with a SQLSTATE, and only the code for Node's errors, whose messages name hosts and sockets", () => {
    const serverError = Object.assign(new Error('unrecognized configuration parameter "nosuch"'), { code: "42704", severity: "FATAL" });
    expect(reasonOf(serverError)).toBe('unrecognized configuration parameter "nosuch", SQLSTATE 42704');
    const tlsError = Object.assign(new Error("Hostname/IP does not match certificate's altnames: Host: db.internal. is not in the cert's altnames"), {
      code: "ERR_TLS_CERT_ALTNAME_INVALID",
    });
    expect(reasonOf(tlsError)).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
    expect(reasonOf(Object.assign(new Error("connect EADDRNOTAVAIL 10.0.0.5:5432"), { code: "EADDRNOTAVAIL" }))).toBe("EADDRNOTAVAIL");
  });
});

describe("isUnavailable", () => {
  it("tells a database out of reach from a request the database refused", () => {
    const coded = (code: string, message = "x") => Object.assign(new Error(message), { code });
    for (const error of [
      coded("ECONNREFUSED"),
      coded("57P01"),
      coded("57P03"),
      coded("08006"),
      coded("53300"),
      new Error("Connection terminated unexpectedly"),
      new AggregateError([coded("ECONNREFUSED")]),
    ]) {
      expect(isUnavailable(error), String(error)).toBe(true);
    }
    for (const error of [coded("23505"), coded("42P01"), new Error("syntax"), "ECONNREFUSED"]) expect(isUnavailable(error), String(error)).toBe(false);
  });
});
