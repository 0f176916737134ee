import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { duplicateKeyPointer } from "../src/service/duplicate-keys.js";
import { HttpError, parseJson } from "../src/service/index.js";

const bytes = (text: string) => new TextEncoder().encode(text);
/** The pointer for a text, given what JSON.parse makes of it, as parseJson calls it. */
const pointerOf = (text: string) => duplicateKeyPointer(text, JSON.parse(text));

/** A JSON text with every key spelled as JSON.stringify would, or with escapes, so equal keys may be spelled apart. */
function spelled(value: unknown, escapeKeys: boolean): string {
  if (Array.isArray(value)) return `[${value.map((item) => spelled(item, escapeKeys)).join(", ")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  return `{${Object.entries(value)
    .map(([key, item]) => `${escapeKeys ? escapeAll(key) : JSON.stringify(key)} : ${spelled(item, escapeKeys)}`)
    .join(",")}}`;
}
const escapeAll = (key: string) =>
  `"${key
    .split("")
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .join("")}"`;

describe("duplicateKeyPointer", () => {
  it("finds nothing in JSON without duplicate keys, however it is spelled", () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: "binary" }), fc.boolean(), (value, escapeKeys) => {
        for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2), spelled(value, escapeKeys)]) {
          expect(pointerOf(text)).toBeUndefined();
          // A value with no properties makes the counts differ whenever the text has a key, so the scan runs too.
          expect(duplicateKeyPointer(text, null)).toBeUndefined();
        }
      }),
    );
  });

  it("finds every duplicate: a key repeated anywhere in a value, spelled the same or with escapes, is reported at its JSON Pointer", () => {
    const keyedObjects = (value: unknown) => pointersToObjects(value).filter(({ object }) => Object.keys(object).length > 0);
    fc.assert(
      fc.property(
        fc.jsonValue({ stringUnit: "binary" }).filter((value) => keyedObjects(value).length > 0),
        fc.nat(),
        fc.boolean(),
        (value, pick, escapeAgain) => {
          const targets = keyedObjects(value);
          const target = targets[pick % targets.length] as { path: string[]; object: Record<string, unknown> };
          const existing = Object.keys(target.object);
          const key = existing[pick % existing.length] as string;
          // The same text with `key` written once more at the end of the chosen object.
          const text = withRepeatedKey(value, target.path, key, escapeAgain);
          expect(() => JSON.parse(text)).not.toThrow();
          expect(pointerOf(text)).toBe([...target.path, key].map((token) => `/${token.replaceAll("~", "~0").replaceAll("/", "~1")}`).join(""));
        },
      ),
    );
  });

  it("stays linear on a wide object and a deep one", () => {
    const wide = `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(",")}}`;
    expect(pointerOf(wide)).toBeUndefined();
    expect(pointerOf(`${wide.slice(0, -1)},"k19999":0}`)).toBe("/k19999");
    const deep = `${'{"a":['.repeat(2000)}1${"]}".repeat(2000)}`;
    expect(pointerOf(deep)).toBeUndefined();
    // Deeper than the count goes: the scan decides.
    expect(pointerOf(`${'{"a":['.repeat(2000)}{"b":1,"b":2}${"]}".repeat(2000)}`)).toBe(`${"/a/0".repeat(2000)}/b`);
  });

  it("names the path through arrays and escaped keys", () => {
    expect(pointerOf('{"scope":"a","scope":"b"}')).toBe("/scope");
    expect(pointerOf('{"tasks":[{"id":1},{"id":2,"window":[0,1],"id":3}]}')).toBe("/tasks/1/id");
    expect(pointerOf('{"a/b":{"x~":[[{}, {"q":1,"\\u0071":2}]]}}')).toBe("/a~1b/x~0/0/1/q");
    expect(pointerOf('[{"a":1},{"a":1},"{\\"a\\":1,\\"a\\":1}"]')).toBeUndefined();
    // Quotes after backslashes: an escaped quote does not end a string, an escaped backslash before one does.
    expect(pointerOf('{"k\\"":1,"k\\\\":{"x":"\\\\","x" :2}}')).toBe("/k\\/x");
    expect(pointerOf('{"a":"\\":","b":"c\\\\","d":1}')).toBeUndefined();
  });
});

describe("parseJson", () => {
  it("refuses duplicate keys with 400 DUPLICATE_KEY and the key's path, and otherwise agrees with JSON.parse", () => {
    const refused = (() => {
      try {
        parseJson(bytes('{"request":{"scope":"read","scope":"admin"}}'));
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).body.error).toEqual({ code: "DUPLICATE_KEY", message: "the body has the key at /request/scope more than once; send each key once" });
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
        let expected: unknown;
        try {
          expected = JSON.parse(text);
        } catch {
          expect(() => parseJson(bytes(text))).toThrow(expect.objectContaining({ code: "INVALID_JSON" }));
          return;
        }
        expect(parseJson(bytes(text))).toEqual(expected);
      }),
    );
  });
});

/** Every object in `value`, with the path of keys and indexes to it. */
function pointersToObjects(value: unknown, path: string[] = []): { path: string[]; object: Record<string, unknown> }[] {
  if (value === null || typeof value !== "object") return [];
  const entries = Array.isArray(value) ? value.map((item, i) => [String(i), item] as const) : Object.entries(value);
  const nested = entries.flatMap(([key, item]) => pointersToObjects(item, [...path, key]));
  return Array.isArray(value) ? nested : [{ path, object: value as Record<string, unknown> }, ...nested];
}

function withRepeatedKey(value: unknown, path: readonly string[], key: string, escapeAgain: boolean): string {
  if (Array.isArray(value)) return `[${value.map((item, i) => (String(i) === path[0] ? withRepeatedKey(item, path.slice(1), key, escapeAgain) : JSON.stringify(item))).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const members = Object.entries(value).map(
    ([name, item]) => `${JSON.stringify(name)}:${path.length > 0 && name === path[0] ? withRepeatedKey(item, path.slice(1), key, escapeAgain) : JSON.stringify(item)}`,
  );
  if (path.length === 0) members.push(`${escapeAgain ? escapeAll(key) : JSON.stringify(key)}:true`);
  return `{${members.join(",")}}`;
}
