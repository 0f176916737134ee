import type { Position, SourceRange } from "./ast.js";
import { diagnostic, type Diagnostic } from "./diagnostics.js";

/**
 * Maps 0-based UTF-16 offsets to 1-based line and column positions.
 * Built once per source; lookups are a binary search over line starts.
 */
export class LineMap {
  readonly #lineStarts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 10) {
        starts.push(i + 1);
      } else if (ch === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.#lineStarts = starts;
  }

  get lineCount(): number {
    return this.#lineStarts.length;
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const starts = this.#lineStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: clamped - starts[low]! + 1, offset: clamped };
  }

  range(startOffset: number, endOffset: number): SourceRange {
    return { start: this.position(startOffset), end: this.position(endOffset) };
  }

  /** The text of a 1-based line, without its line terminator. */
  lineText(line: number): string {
    const start = this.#lineStarts[line - 1];
    if (start === undefined) return "";
    const next = this.#lineStarts[line];
    let end = next === undefined ? this.text.length : next;
    while (end > start && (this.text.charCodeAt(end - 1) === 10 || this.text.charCodeAt(end - 1) === 13)) end--;
    return this.text.slice(start, end);
  }
}

/** Source text decoded from a file's bytes, and why it cannot be compiled, if it cannot. */
export interface DecodedSource {
  /**
   * The text, with any invalid byte sequence shown as U+FFFD: for code
   * frames only. Compile it only when `diagnostics` is empty.
   */
  text: string;
  /** M106 for a binary file, M107 for text that is not valid UTF-8; empty when the text is sound. */
  diagnostics: Diagnostic[];
}

/** How much of a file is looked at to tell binary from text, as git does. */
const SNIFF_BYTES = 8000;
/** Text in another encoding (Latin-1) has a few invalid sequences; a binary file, mostly invalid ones. */
const BINARY_INVALID_SHARE = 0.3;

/**
 * Decodes a mission file's bytes as UTF-8, strictly: a file with NUL bytes
 * or mostly invalid UTF-8 is not a text file (M106, one diagnostic instead
 * of thousands of unexpected characters), and any other invalid sequence is
 * M107 at the line and column of its first byte.
 */
export function decodeSource(bytes: Uint8Array, filename: string): DecodedSource {
  // A byte order mark stays in the text, as reading the file as a string keeps it.
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  const head = bytes.subarray(0, SNIFF_BYTES);
  const nul = head.indexOf(0);
  if (nul >= 0 || invalidShare(head) > BINARY_INVALID_SHARE) {
    const at = nul >= 0 ? nul : firstInvalidByte(bytes);
    return { text, diagnostics: [sourceDiagnostic("M106", bytes, at, text, filename)] };
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return { text, diagnostics: [] };
  } catch {
    return { text, diagnostics: [sourceDiagnostic("M107", bytes, firstInvalidByte(bytes), text, filename)] };
  }
}

function sourceDiagnostic(code: "M106" | "M107", bytes: Uint8Array, byteOffset: number, text: string, filename: string): Diagnostic {
  // The lenient decoding of the bytes before the problem is exactly the text before it.
  const offset = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.subarray(0, byteOffset)).length;
  const lines = new LineMap(text);
  const range = lines.range(offset, Math.min(offset + 1, text.length));
  const hex = (bytes[byteOffset] ?? 0).toString(16).padStart(2, "0");
  return code === "M106" ? diagnostic(code, filename, range, {}) : diagnostic(code, filename, range, { hex, byteOffset });
}

/**
 * The offset of the first byte that does not start or continue a
 * well-formed UTF-8 sequence (Unicode table 3-7: no overlong forms,
 * surrogates or code points past U+10FFFF) at or after `from`, or -1.
 */
function firstInvalidByte(bytes: Uint8Array, from = 0): number {
  let i = from;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) return i;
    i += length;
  }
  return -1;
}

/** The length of the well-formed sequence starting at `i`, or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const continuation = (at: number, low = 0x80, high = 0xbf) => {
    const b = bytes[at];
    return b !== undefined && b >= low && b <= high;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return continuation(i + 1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const [low, high] = b0 === 0xe0 ? [0xa0, 0xbf] : b0 === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return continuation(i + 1, low, high) && continuation(i + 2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const [low, high] = b0 === 0xf0 ? [0x90, 0xbf] : b0 === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return continuation(i + 1, low, high) && continuation(i + 2) && continuation(i + 3) ? 4 : 0;
  }
  return 0;
}

/** The share of the bytes that start an invalid sequence; a sequence cut by the end of `head` does not count. */
function invalidShare(head: Uint8Array): number {
  if (head.length === 0) return 0;
  let invalid = 0;
  for (let i = firstInvalidByte(head); i >= 0 && i < head.length - 3; i = firstInvalidByte(head, i + 1)) invalid++;
  return invalid / head.length;
}
