import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_LISTEN_ADDRESS, parseHost, parsePort, resolveListenAddress } from "../src/listen-address.js";
import { describeIoError, describeListenFailure, listenFailureLine } from "@temporal/agent-sdk/node";

const port = fc.integer({ min: 0, max: 65_535 });
const host = fc.constantFrom("127.0.0.1", "::1", "0.0.0.0", "localhost", "svc-1.example.com");

describe("resolveListenAddress", () => {
  it("takes each of host and port from the flag, else the environment, else the file, else the default", () => {
    fc.assert(
      fc.property(
        fc.record({ flag: fc.option(port, { nil: undefined }), env: fc.option(port, { nil: undefined }), file: fc.option(port, { nil: undefined }) }),
        fc.record({ flag: fc.option(host, { nil: undefined }), env: fc.option(host, { nil: undefined }), file: fc.option(host, { nil: undefined }) }),
        (ports, hosts) => {
          const env = { ...(ports.env === undefined ? {} : { PORT: String(ports.env) }), ...(hosts.env === undefined ? {} : { HOST: hosts.env }) };
          const address = resolveListenAddress({ host: hosts.flag, port: ports.flag }, env, { host: hosts.file, port: ports.file }, "service.json");
          expect(address).toEqual({ host: hosts.flag ?? hosts.env ?? hosts.file ?? DEFAULT_LISTEN_ADDRESS.host, port: ports.flag ?? ports.env ?? ports.file ?? DEFAULT_LISTEN_ADDRESS.port });
        },
      ),
    );
  });

  it("counts an empty variable as unset, and checks only the value it uses", () => {
    expect(resolveListenAddress({}, { HOST: "", PORT: "" }, { port: 9000 }, "c.json")).toEqual({ host: "127.0.0.1", port: 9000 });
    expect(resolveListenAddress({ host: "::", port: 1 }, { HOST: "not a host", PORT: "not a port" }, {}, "c.json")).toEqual({ host: "::", port: 1 });
  });

  it("refuses a bad value from the environment or the file with INVALID_ARGUMENT, naming where it came from", () => {
    expect(() => resolveListenAddress({}, { PORT: "80a" }, {}, "c.json")).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/^the environment variable PORT is "80a": a port is/) }),
    );
    expect(() => resolveListenAddress({}, {}, { host: "a b" }, "/etc/c.json")).toThrow(/^host in config \/etc\/c\.json is "a b": a host is/);
  });
});

describe("parsePort and parseHost", () => {
  it("accept exactly the integers 0..65535 written in decimal", () => {
    fc.assert(fc.property(port, (value) => parsePort(String(value)) === value));
    for (const bad of ["", "-1", "65536", "1e3", "0x50", " 80", "80 ", "8080.0", "123456"]) expect(parsePort(bad), bad).toBeUndefined();
  });

  it("accept IP addresses and host names, not URLs, host:port or spaces", () => {
    for (const good of ["127.0.0.1", "::", "::1", "fe80::1", "localhost", "a.b-c.example"]) expect(parseHost(good), good).toBe(good);
    for (const bad of ["", "http://localhost", "localhost:8787", "a b", "-x", "x/", "[::1]"]) expect(parseHost(bad), bad).toBeUndefined();
  });
});

describe("describeListenFailure", () => {
  const error = (code: string) => Object.assign(new Error(code), { code });
  it("says what to do for each way the address cannot be opened, brackets an IPv6 host, and leaves other errors alone", () => {
    expect(describeListenFailure(error("EADDRINUSE"), { host: "::1", port: 8787 }, "temporal-service")).toMatch(/^cannot listen on \[::1\]:8787: the address is in use .*--port 0/);
    expect(describeListenFailure(error("EACCES"), { host: "0.0.0.0", port: 80 }, "temporal-service")).toMatch(/^cannot listen on 0\.0\.0\.0:80: permission denied .*--port 0/);
    expect(describeListenFailure(error("ENOTFOUND"), { host: "nowhere.invalid", port: 1 }, "temporal-service")).toMatch(/cannot be resolved; choose another --host/);
    expect(describeListenFailure(error("ENOSPC"), DEFAULT_LISTEN_ADDRESS, "temporal-service")).toBeUndefined();
    expect(describeListenFailure(new Error("no code"), DEFAULT_LISTEN_ADDRESS, "temporal-service")).toBeUndefined();
  });

  it("listenFailureLine: the same line, else the address with describeIoError's words", () => {
    const inUse = error("EADDRINUSE");
    expect(listenFailureLine(inUse, { host: "::1", port: 8787 }, "temporal-witness")).toBe(describeListenFailure(inUse, { host: "::1", port: 8787 }, "temporal-witness"));
    const noSpace = error("ENOSPC");
    expect(listenFailureLine(noSpace, { host: "::1", port: 1 }, "temporal-witness")).toBe(`cannot listen on [::1]:1: ${describeIoError(noSpace)}`);
  });
});
