import { TemporalError } from "@temporal/agent-sdk";
import { describe, expect, it } from "vitest";
import { isUnavailable, reasonOf, storeError } from "../src/store-errors.js";

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
      // Refusals that last until an operator acts: still out of reach, with their own words (see storeError).
      coded("28P01"),
      coded("3D000"),
      new Error("Connection terminated unexpectedly"),
      new AggregateError([coded("ECONNREFUSED")]),
    ]) {
      expect(isUnavailable(error), String(error)).toBe(true);
    }
    for (const error of [coded("23505"), coded("42P01"), new Error("syntax"), "ECONNREFUSED"]) expect(isUnavailable(error), String(error)).toBe(false);
  });
});

describe("storeError", () => {
  const coded = (code: string, message = "x") => Object.assign(new Error(message), { code });
  const messageOf = (error: unknown) => {
    const mapped = storeError(error);
    expect(mapped).toBeInstanceOf(TemporalError);
    expect((mapped as TemporalError).code).toBe("STORE_UNAVAILABLE");
    return (mapped as TemporalError).message;
  };

  it("says to retry later for an outage, and that an operator must act for a refusal waiting does not end", () => {
    for (const outage of [coded("ECONNREFUSED"), coded("57P03"), coded("53300"), new Error("Connection terminated unexpectedly")]) {
      expect(messageOf(outage), String(outage)).toMatch(/^the database cannot be used now \(.*\); nothing was applied, retry later$/);
    }
    const refusals = [coded("28P01", 'password authentication failed for user "alice"'), coded("3D000"), coded("22023"), new Error("The server does not support SSL connections")];
    for (const refusal of refusals) {
      expect(messageOf(refusal), String(refusal)).toMatch(
        /^the database refuses this node \(.*\); nothing was applied, and it will go on refusing until an operator changes the store URL or the database server$/,
      );
    }
    expect(messageOf(coded("28P01"))).toContain("(authentication refused)");
  });

  it("judges an AggregateError (every address of a host failed) by the same member its reason names", () => {
    expect(messageOf(new AggregateError([coded("ECONNREFUSED"), coded("28P01")]))).toMatch(/^the database cannot be used now \(ECONNREFUSED\)/);
    expect(messageOf(new AggregateError([new Error("syntax"), coded("3D000")]))).toMatch(/^the database refuses this node \(no such database\)/);
  });

  it("leaves an error that is not about reaching the database as it is", () => {
    const conflict = coded("23505");
    expect(storeError(conflict)).toBe(conflict);
  });
});
