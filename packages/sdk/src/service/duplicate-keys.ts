/**
 * JSON.parse keeps the last of two equal keys, so `{"scope":"a","scope":"b"}` reads as one scope while a
 * proxy or a logger may have read the other. This finds a duplicate key in text JSON.parse has accepted.
 *
 * First it counts: JSON.parse gives an object one property per distinct key, so when the text has as many keys as
 * the parsed value has properties, no key repeats. Counting the text's keys only needs its strings (a key is a
 * string followed by a colon), found with indexOf, and no state: with the count of the parsed value, 0.45–0.6 of the
 * time of the scan that names the duplicate (docs/service.md), which runs only when the counts differ: one pass over the characters, with no token
 * objects; a key becomes a string only to be compared, and objects with many keys get a Set so a wide object stays linear.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** Up to this many keys an object's keys are compared one by one; past it they go into a Set. */
const LINEAR_KEYS = 8;
/** Deeper values are not counted (the count recurses); the scan, which does not, decides for them. */
const COUNTED_DEPTH = 64;

/**
 * The JSON Pointer (RFC 6901) of the first repeated key in `text`, for example `/scope` or `/tasks/0/window`,
 * or undefined when every object's keys differ. `text` must be JSON that JSON.parse accepts, and `value` what it
 * gave; keys are compared as JSON.parse decodes them, so `"a"` and `"\u0061"` are the same key.
 */
export function duplicateKeyPointer(text: string, value: unknown): string | undefined {
  return keysIn(text) === propertiesIn(value, 0) ? undefined : scanForDuplicate(text);
}

/** The number of keys in JSON text: its strings that a colon follows. */
function keysIn(text: string): number {
  let keys = 0;
  let quote = text.indexOf('"');
  while (quote !== -1) {
    let end = text.indexOf('"', quote + 1);
    while (isEscapedQuote(text, end)) end = text.indexOf('"', end + 1);
    let next = end + 1;
    let c = text.charCodeAt(next);
    // JSON's whitespace: space, tab, line feed, carriage return.
    while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(++next);
    if (c === COLON) keys++;
    quote = text.indexOf('"', next);
  }
  return keys;
}

/** Whether the quote at `at` is escaped: an odd number of backslashes before it. */
function isEscapedQuote(text: string, at: number): boolean {
  let before = at - 1;
  while (text.charCodeAt(before) === BACKSLASH) before--;
  return (at - 1 - before) % 2 === 1;
}

/** The number of properties of the objects in a parsed JSON value; NaN (equal to no count) when it nests deeper than COUNTED_DEPTH. */
function propertiesIn(value: unknown, depth: number): number {
  if (typeof value !== "object" || value === null) return 0;
  if (depth === COUNTED_DEPTH) return Number.NaN;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) count += propertiesIn(item, depth + 1);
    return count;
  }
  const keys = Object.keys(value);
  count = keys.length;
  for (const key of keys) count += propertiesIn((value as Record<string, unknown>)[key], depth + 1);
  return count;
}

/** The pointer to the first repeated key, as duplicateKeyPointer, found by a scan of the characters. */
function scanForDuplicate(text: string): string | undefined {
  // One entry per open object or array: in an object, the index in `keys` where its keys start; in an array, -1.
  const frames: number[] = [];
  // The current array index of each open array, and the sets of wide objects, by frame depth.
  const indexes: number[] = [];
  const sets: (Set<string> | undefined)[] = [];
  const keys: string[] = [];
  let expectingKey = false;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      let escaped = false;
      for (i++; ; i++) {
        const d = text.charCodeAt(i);
        if (d === QUOTE) break;
        if (d === BACKSLASH) {
          escaped = true;
          i++;
        }
      }
      if (!expectingKey) continue;
      expectingKey = false;
      const key = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
      const depth = frames.length - 1;
      const first = frames[depth] as number;
      const set = sets[depth];
      if (set === undefined) {
        for (let k = first; k < keys.length; k++) if (keys[k] === key) return pointer(frames, indexes, keys, key);
        if (keys.length - first >= LINEAR_KEYS) sets[depth] = new Set(keys.slice(first)).add(key);
      } else if (set.has(key)) return pointer(frames, indexes, keys, key);
      else set.add(key);
      keys.push(key);
    } else if (c === OPEN_OBJECT) {
      frames.push(keys.length);
      indexes.push(0);
      sets.push(undefined);
      expectingKey = true;
    } else if (c === OPEN_ARRAY) {
      frames.push(-1);
      indexes.push(0);
      sets.push(undefined);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      const first = frames.pop() as number;
      indexes.pop();
      sets.pop();
      if (first >= 0) keys.length = first;
      expectingKey = false;
    } else if (c === COMMA) {
      const depth = frames.length - 1;
      if ((frames[depth] as number) >= 0) expectingKey = true;
      else indexes[depth] = (indexes[depth] as number) + 1;
    }
  }
  return undefined;
}

/** The pointer to `key` in the innermost open object: each enclosing object's last key, each array's index. */
function pointer(frames: readonly number[], indexes: readonly number[], keys: readonly string[], key: string): string {
  let path = "";
  for (let depth = 0; depth < frames.length - 1; depth++) {
    // An enclosing object's current key is its last: the keys of deeper objects start after it.
    const own = (frames[depth] as number) < 0 ? undefined : keys[deeperKeysStart(frames, depth + 1, keys.length) - 1];
    path += `/${own === undefined ? String(indexes[depth]) : escapeToken(own)}`;
  }
  return `${path}/${escapeToken(key)}`;
}

/** Where the keys of the first object at `from` or deeper start (`end` if there is none). */
function deeperKeysStart(frames: readonly number[], from: number, end: number): number {
  for (let depth = from; depth < frames.length; depth++) if ((frames[depth] as number) >= 0) return frames[depth] as number;
  return end;
}

function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}
