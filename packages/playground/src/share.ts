import type { PlaygroundSettings } from "./state.js";

/**
 * Share links: the source and settings in the URL fragment (never sent to
 * a server), as `#v1.` + base64url(deflate-raw(JSON)). The version prefix
 * lets a later encoding coexist with links already shared.
 */
export interface SharedPlayground {
  source: string;
  settings: PlaygroundSettings;
}

export type ShareLinkErrorCode = "SHARE_LINK_UNKNOWN_VERSION" | "SHARE_LINK_CORRUPT" | "SHARE_LINK_TOO_LARGE";

export class ShareLinkError extends Error {
  constructor(
    readonly code: ShareLinkErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ShareLinkError";
  }
}

const PREFIX = "v1.";
/** A decompressed link larger than this is refused, so a crafted fragment cannot exhaust memory. */
const MAX_DECODED_BYTES = 1 << 20;

export async function encodeShareFragment(shared: SharedPlayground): Promise<string> {
  const json = JSON.stringify({ source: shared.source, settings: { at: shared.settings.at, carbon: shared.settings.carbon, hsBloch: shared.settings.hsBloch } });
  const compressed = await transform(new TextEncoder().encode(json), new CompressionStream("deflate-raw"), Infinity);
  return `#${PREFIX}${toBase64Url(compressed)}`;
}

/** The playground a fragment (with or without its `#`) encodes; throws a `ShareLinkError` saying what is wrong. */
export async function decodeShareFragment(fragment: string): Promise<SharedPlayground> {
  const body = fragment.startsWith("#") ? fragment.slice(1) : fragment;
  if (!body.startsWith(PREFIX)) {
    const version = /^v\d+\./.test(body) ? body.slice(0, body.indexOf(".")) : "none";
    throw new ShareLinkError("SHARE_LINK_UNKNOWN_VERSION", `this share link's format (${version}) is not one this playground reads (v1); it may come from a newer playground`);
  }
  let json: string;
  try {
    const bytes = await transform(fromBase64Url(body.slice(PREFIX.length)), new DecompressionStream("deflate-raw"), MAX_DECODED_BYTES);
    json = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    if (error instanceof ShareLinkError) throw error;
    throw new ShareLinkError("SHARE_LINK_CORRUPT", "this share link is damaged (it does not decompress): was it cut off when copied?");
  }
  return parseShared(json);
}

function parseShared(json: string): SharedPlayground {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new ShareLinkError("SHARE_LINK_CORRUPT", "this share link is damaged (its contents are not JSON)");
  }
  if (typeof value !== "object" || value === null) throw new ShareLinkError("SHARE_LINK_CORRUPT", "this share link is damaged (no playground in it)");
  const { source, settings } = value as { source?: unknown; settings?: unknown };
  if (typeof source !== "string") throw new ShareLinkError("SHARE_LINK_CORRUPT", "this share link is damaged (its source is not text)");
  if (typeof settings !== "object" || settings === null) throw new ShareLinkError("SHARE_LINK_CORRUPT", "this share link is damaged (no settings in it)");
  const read = (key: keyof PlaygroundSettings): number | null => {
    const setting = (settings as Record<string, unknown>)[key];
    if (setting === null) return null;
    const rule = SETTING_RULES[key];
    if (typeof setting === "number" && rule.accepts(setting)) return setting;
    throw new ShareLinkError("SHARE_LINK_CORRUPT", `this share link is damaged (its setting "${key}" is not ${rule.expected})`);
  };
  return { source, settings: { at: read("at"), carbon: read("carbon"), hsBloch: read("hsBloch") } };
}

/**
 * What each setting may be: what the time panel can show. A link is data from anyone, and `at: 1e300`
 * (no Date can hold it) once broke the panel; 8.64e15 ms is the largest instant a Date represents.
 */
const SETTING_RULES: Record<keyof PlaygroundSettings, { accepts: (value: number) => boolean; expected: string }> = {
  at: { accepts: (value) => Number.isInteger(value) && Math.abs(value) <= 8.64e15, expected: "a whole number of milliseconds within the dates a browser can show" },
  carbon: { accepts: (value) => Number.isFinite(value) && value >= 0, expected: "a number of gCO2eq/kWh, 0 or more" },
  hsBloch: { accepts: (value) => value >= 0 && value <= 1, expected: "a number from 0 to 1" },
};

async function transform(input: Uint8Array, stream: CompressionStream | DecompressionStream, limit: number): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  // Errors surface on the reading side; the writer's own rejections are the same errors.
  writer.write(input as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ShareLinkError("SHARE_LINK_TOO_LARGE", `this share link holds more than ${limit / 1024} KiB of text, more than the playground opens`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  // In slices: String.fromCharCode with a very long argument list overflows the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new ShareLinkError("SHARE_LINK_CORRUPT", "this share link is damaged (it has characters a link never has)");
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
