import { TemporalTypeError, describeValue } from "./errors.js";

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * RFC 8785 (JCS) canonical JSON: object keys sorted by UTF-16 code units, no
 * whitespace, numbers and strings as ECMAScript serialises them. Only plain
 * JSON data is accepted; `undefined`, functions, non-finite numbers, lone
 * surrogates and non-plain objects throw rather than vanish, because a
 * signature over silently dropped data would be a trap.
 */
export function canonicalJson(value: unknown): string {
  try {
    return serialize(value);
  } catch (error) {
    if (!(error instanceof UnsupportedValue)) throw error;
    throw new TemporalTypeError("INVALID_JSON_VALUE", `cannot canonicalise $${error.path}: ${describeValue(error.value)} ${error.reason}`);
  }
}

/** Carries the failing value outwards; each container prepends its key, so paths cost nothing on success. */
class UnsupportedValue extends Error {
  path = "";
  constructor(
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(reason);
  }
}

function serialize(value: unknown): string {
  switch (typeof value) {
    case "string":
      if (LONE_SURROGATE.test(value)) throw new UnsupportedValue(value, "contains a lone surrogate");
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new UnsupportedValue(value, "is not a finite number");
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      if (Array.isArray(value)) return serializeArray(value);
      if (!isPlainObject(value)) throw new UnsupportedValue(value, "is not a plain object");
      return serializeObject(value as Record<string, unknown>);
    default:
      throw new UnsupportedValue(value, value === undefined ? "is not JSON" : `is a ${typeof value}`);
  }
}

function serializeArray(array: readonly unknown[]): string {
  let out = "[";
  for (let i = 0; i < array.length; i++) {
    if (i > 0) out += ",";
    out += member(array[i], i);
  }
  return `${out}]`;
}

function serializeObject(object: Record<string, unknown>): string {
  const keys = Object.keys(object).sort();
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (i > 0) out += ",";
    out += member(key, key);
    out += ":";
    out += member(object[key], key);
  }
  return `${out}}`;
}

function member(value: unknown, at: string | number): string {
  try {
    return serialize(value);
  } catch (error) {
    if (error instanceof UnsupportedValue) error.path = (typeof at === "number" ? `[${at}]` : `.${at}`) + error.path;
    throw error;
  }
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
