import pg from "pg";

/**
 * Values written into SQL text, for statements sent with others in one round trip (the simple query protocol,
 * which takes no parameters). Only these two kinds are ever inlined, each checked or escaped here.
 */

/** An integer as SQL; anything but a safe integer is refused rather than written. */
export function sqlInteger(value: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${String(value)} is not a safe integer: it cannot be written into SQL`);
  return String(value);
}

/** A string as a quoted SQL literal (pg's escaping: quotes doubled, and backslashes too under an E'' prefix). */
export function sqlText(value: string): string {
  return pg.escapeLiteral(value);
}
