import type { Position, SourceRange } from "./ast.js";

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
