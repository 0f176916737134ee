import { TemporalTypeError } from "../core/index.js";

/**
 * Who the client is behind proxies: `trust_proxy` lists the proxies (addresses or CIDR ranges, IPv4 and IPv6),
 * and `X-Forwarded-For` is walked from the right, the end the proxies append to, so entries a client writes
 * itself (on the left) never choose its rate-limit key. Platform-free: the addresses are parsed here rather
 * than with node:net.
 */

/** An address as 16 bytes: IPv4 as IPv4-mapped IPv6, so one range type covers both. */
type Bytes = Uint8Array;

interface Range {
  readonly bytes: Bytes;
  readonly prefixBits: number;
}

/** The trusted proxies, parsed once per config. */
export class TrustedProxies {
  readonly #ranges: readonly Range[];

  /** Throws TemporalTypeError `INVALID_ARGUMENT` naming the first entry that is neither an address nor a CIDR range. */
  constructor(entries: readonly string[]) {
    this.#ranges = entries.map((entry, index) => {
      const range = parseRange(entry);
      if (range === undefined)
        throw new TemporalTypeError("INVALID_ARGUMENT", `trust_proxy[${index}] ${JSON.stringify(entry)} is not an IPv4 or IPv6 address or CIDR range (such as "10.0.0.0/8" or "::1")`);
      return range;
    });
  }

  /** True when no proxy is trusted: X-Forwarded-For is then never read. */
  get empty(): boolean {
    return this.#ranges.length === 0;
  }

  /** Whether `address` (an IP address in any textual form) is one of the trusted proxies. */
  trusts(address: string): boolean {
    const bytes = parseAddress(address);
    return bytes !== undefined && this.#trustsBytes(bytes);
  }

  #trustsBytes(bytes: Bytes): boolean {
    return this.#ranges.some((range) => inRange(bytes, range));
  }

  /**
   * The client's address for a request from `peer` (the socket's address) carrying `forwarded` (X-Forwarded-For,
   * several headers counting as one joined by commas). Only a trusted peer's header is read; from its right end,
   * trusted proxies are skipped and the first untrusted hop is the client. A malformed entry stops the walk at the
   * last good hop. The address is returned in a canonical form, so spellings of one address share a key.
   */
  clientAddress(peer: string, forwarded: string | readonly string[] | undefined): string {
    if (this.#ranges.length === 0 || forwarded === undefined) return peer;
    const peerBytes = parseAddress(peer);
    if (peerBytes === undefined || !this.#trustsBytes(peerBytes)) return peer;
    const hops = (typeof forwarded === "string" ? forwarded : forwarded.join(",")).split(",");
    let client = canonical(peerBytes);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = parseAddress((hops[i] as string).trim());
      if (hop === undefined) return client;
      client = canonical(hop);
      if (!this.#trustsBytes(hop)) return client;
    }
    // Every hop is a trusted proxy: the leftmost is the closest thing to a client there is.
    return client;
  }
}

function parseRange(entry: string): Range | undefined {
  const slash = entry.indexOf("/");
  const bytes = parseAddress(slash === -1 ? entry : entry.slice(0, slash));
  if (bytes === undefined) return undefined;
  const isV4 = entry.indexOf(":") === -1;
  const maxBits = isV4 ? 32 : 128;
  if (slash === -1) return { bytes, prefixBits: 128 };
  const bitsText = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsText) || Number(bitsText) > maxBits) return undefined;
  // An IPv4 prefix counts from the 96 bits of the IPv4-mapped form.
  return { bytes, prefixBits: Number(bitsText) + (isV4 ? 96 : 0) };
}

function inRange(bytes: Bytes, { bytes: base, prefixBits }: Range): boolean {
  const whole = prefixBits >> 3;
  for (let i = 0; i < whole; i++) if (bytes[i] !== base[i]) return false;
  const rest = prefixBits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((bytes[whole] as number) & mask) === ((base[whole] as number) & mask);
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEXTET = /^[0-9a-fA-F]{1,4}$/;

/** 16 bytes for an IPv4 (dotted quad) or IPv6 address (with `::` and a trailing dotted quad; no zone), else undefined. */
function parseAddress(text: string): Bytes | undefined {
  if (text.indexOf(":") === -1) {
    const quad = ipv4(text);
    if (quad === undefined) return undefined;
    const bytes = new Uint8Array(16);
    bytes[10] = 0xff;
    bytes[11] = 0xff;
    bytes.set(quad, 12);
    return bytes;
  }
  return ipv6(text);
}

function ipv4(text: string): number[] | undefined {
  const match = IPV4.exec(text);
  if (match === null) return undefined;
  const octets = match.slice(1).map((part) => (part.length > 1 && part.startsWith("0") ? 256 : Number(part)));
  return octets.every((octet) => octet <= 255) ? octets : undefined;
}

function ipv6(text: string): Bytes | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (half: string | undefined): number[] | undefined => {
    if (half === undefined || half === "") return [];
    const values: number[] = [];
    const parts = half.split(":");
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      if (i === parts.length - 1 && part.indexOf(".") !== -1) {
        const quad = ipv4(part);
        if (quad === undefined) return undefined;
        values.push(((quad[0] as number) << 8) | (quad[1] as number), ((quad[2] as number) << 8) | (quad[3] as number));
      } else if (HEXTET.test(part)) values.push(parseInt(part, 16));
      else return undefined;
    }
    return values;
  };
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  if (head === undefined || tail === undefined) return undefined;
  const compressed = halves.length === 2;
  const missing = 8 - head.length - tail.length;
  if (compressed ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}

/** Dotted quad for an IPv4(-mapped) address, else the 8 groups in lower-case hex without leading zeros (no `::`: a key, not a display form). */
function canonical(bytes: Bytes): string {
  let mapped = bytes[10] === 0xff && bytes[11] === 0xff;
  for (let i = 0; i < 10 && mapped; i++) mapped = bytes[i] === 0;
  if (mapped) return `${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] as number) << 8) | (bytes[i + 1] as number)).toString(16));
  return groups.join(":");
}
