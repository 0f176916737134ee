import { BlockList } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TemporalTypeError } from "../src/index.js";
import { TrustedProxies } from "../src/service/index.js";

const PROXIES = ["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8"];
const trusted = new TrustedProxies(PROXIES);
/** IPv4 addresses outside 10/8 and 127.0.0.1: clients. */
const clientV4 = fc.ipV4().filter((address) => !address.startsWith("10.") && address !== "127.0.0.1");
const proxyV4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `10.${a}.${b}.${c}`);

describe("TrustedProxies.clientAddress", () => {
  it("a client cannot choose its key by writing X-Forwarded-For entries: whatever it sends, it is keyed on the address the first trusted proxy saw", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 6 }), clientV4, fc.array(proxyV4, { maxLength: 3 }), (written, client, innerProxies) => {
        // The client sends `written`; each proxy appends the address it got the request from; the last proxy is the socket's peer.
        const hops = [client, ...innerProxies];
        const forwarded = [...written, ...hops].join(", ");
        expect(trusted.clientAddress("127.0.0.1", forwarded)).toBe(client);
        expect(trusted.clientAddress("127.0.0.1", [...written, hops.join(",")])).toBe(client);
      }),
    );
  });

  it("reads the header only from a trusted peer, and not at all with no proxies", () => {
    fc.assert(
      fc.property(clientV4, fc.string(), (peer, forwarded) => {
        expect(trusted.clientAddress(peer, forwarded)).toBe(peer);
        expect(new TrustedProxies([]).clientAddress("127.0.0.1", forwarded)).toBe("127.0.0.1");
      }),
    );
    expect(trusted.clientAddress("127.0.0.1", undefined)).toBe("127.0.0.1");
  });

  it("stops at a malformed entry and keeps the last good hop; several headers count as one", () => {
    expect(trusted.clientAddress("127.0.0.1", "203.0.113.7, not-an-ip, 10.1.2.3")).toBe("10.1.2.3");
    expect(trusted.clientAddress("127.0.0.1", "203.0.113.7, 10.1.2.3:443")).toBe("127.0.0.1");
    expect(trusted.clientAddress("127.0.0.1", "")).toBe("127.0.0.1");
    expect(trusted.clientAddress("127.0.0.1", ["198.51.100.1", "203.0.113.7, 10.0.0.1"])).toBe("203.0.113.7");
    expect(trusted.clientAddress("127.0.0.1", "10.0.0.2, 10.0.0.1")).toBe("10.0.0.2");
  });

  it("keys one address on one spelling: IPv4-mapped IPv6 as IPv4, IPv6 in full lower-case groups", () => {
    expect(trusted.clientAddress("::ffff:127.0.0.1", "::FFFF:203.0.113.7")).toBe("203.0.113.7");
    expect(trusted.clientAddress("::1", "2001:DB8::0001")).toBe("2001:db8:0:0:0:0:0:1");
    expect(trusted.clientAddress("0:0:0:0:0:0:0:1", "fd12::1, 2001:db8::1:2")).toBe("2001:db8:0:0:0:0:1:2");
  });
});

describe("TrustedProxies.trusts", () => {
  it("matches addresses and CIDR ranges as node:net's BlockList does", () => {
    for (const [address, maxBits, family] of [
      [fc.ipV4(), 32, "ipv4"],
      [fc.ipV6(), 128, "ipv6"],
    ] as const) {
      fc.assert(
        fc.property(address, fc.integer({ min: 0, max: maxBits }), fc.array(address, { maxLength: 5 }), (base, bits, others) => {
          const list = new BlockList();
          list.addSubnet(base, bits, family);
          const proxies = new TrustedProxies([`${base}/${bits}`]);
          for (const other of [base, ...others]) expect(proxies.trusts(other), `${other} in ${base}/${bits}`).toBe(list.check(other, family));
        }),
      );
    }
  });

  it("refuses an entry that is not an address or range, naming it", () => {
    for (const entry of ["10.0.0.0/33", "::1/129", "localhost", "1.2.3", "1.2.3.256", "01.2.3.4", "1::2::3", "1:2:3:4:5:6:7:8:9", "fe80::1%eth0", "10.0.0.0/", "10.0.0.0/8/8"]) {
      expect(() => new TrustedProxies(["127.0.0.1", entry]), entry).toThrow(TemporalTypeError);
      expect(() => new TrustedProxies(["127.0.0.1", entry]), entry).toThrow(`trust_proxy[1] ${JSON.stringify(entry)}`);
    }
    expect(new TrustedProxies(["0.0.0.0/0"]).trusts("203.0.113.7")).toBe(true);
    expect(new TrustedProxies(["::/0"]).trusts("203.0.113.7")).toBe(true);
  });
});
