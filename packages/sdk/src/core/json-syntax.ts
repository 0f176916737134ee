/**
 * Where and why `JSON.parse` refused a text, for a message that points at the place as editors do. V8 names a
 * position for some errors only, and as an offset; this finds the token that breaks the text itself.
 */

/** Why a text is not JSON: `where` is the 1-based `line:column` of the token that breaks it (undefined when it cannot tell), `reason` V8's words without their position or an echo of the text. */
export interface JsonSyntaxProblem {
  readonly where: string | undefined;
  readonly reason: string;
}

/** What `JSON.parse(text)` threw (`error`), placed in `text`. */
export function jsonSyntaxProblem(text: string, error: unknown): JsonSyntaxProblem {
  const offset = jsonErrorOffset(text);
  // V8's message may name a position, which `where` gives as line:column, or quote some of the text (with "..." where
  // it cut it), which the reader has and which may hold line breaks.
  const reason = (error instanceof Error ? error.message : String(error)).replace(/ in JSON at position \d+.*$/, "").replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, "");
  return { where: offset === undefined ? undefined : lineColumn(text, offset), reason };
}

/** 1-based `line:column` of `offset`, counting columns in UTF-16 code units as editors do. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return `${line}:${offset - (before.lastIndexOf("\n") + 1) + 1}`;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERAL = /true|false|null/y;

/**
 * Where `text` stops being JSON (RFC 8259): the offset of the token that breaks it, for the message's location.
 * JSON.parse decides whether the text is JSON; this only says where, since V8 does not always. Undefined when it
 * cannot tell (nesting too deep to walk).
 */
export function jsonErrorOffset(text: string): number | undefined {
  let at = 0;
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at] as string)) at++;
  };
  const token = (pattern: RegExp): boolean => {
    pattern.lastIndex = at;
    if (!pattern.test(text)) return false;
    at = pattern.lastIndex;
    return true;
  };
  /** Past the opening bracket: members separated by commas up to `close`, which it steps over. */
  const members = (close: string, member: () => boolean): boolean => {
    at++;
    space();
    for (let first = true; ; first = false) {
      if (text[at] === close && first) break;
      if (!member()) return false;
      space();
      if (text[at] === close) break;
      if (text[at] !== ",") return false;
      at++;
      space();
    }
    at++;
    return true;
  };
  const value = (): boolean => {
    space();
    const first = text[at];
    if (first === "{") {
      return members("}", () => {
        if (!token(STRING)) return false;
        space();
        if (text[at] !== ":") return false;
        at++;
        return value();
      });
    }
    if (first === "[") return members("]", value);
    return token(STRING) || token(NUMBER) || token(LITERAL);
  };
  try {
    if (!value()) return at;
    space();
    return at < text.length ? at : undefined;
  } catch {
    return undefined; // a stack overflow: the location is not worth the depth
  }
}
