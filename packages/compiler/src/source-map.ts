import type { Position } from "./ast.js";

/**
 * A minimal source map v3 builder: one source, segments with
 * generated line/column -> source line/column.
 */

export interface SourceMapV3 {
  version: 3;
  file: string;
  sources: string[];
  sourcesContent: string[];
  names: string[];
  mappings: string;
}

interface Segment {
  generatedLine: number;
  generatedColumn: number;
  sourceLine: number;
  sourceColumn: number;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function vlq(value: number): string {
  let rest = value < 0 ? (-value << 1) | 1 : value << 1;
  let out = "";
  do {
    let digit = rest & 31;
    rest >>>= 5;
    if (rest > 0) digit |= 32;
    out += BASE64[digit];
  } while (rest > 0);
  return out;
}

export class SourceMapBuilder {
  readonly #segments: Segment[] = [];

  /** Maps a 0-based generated line and column to a 1-based source position. */
  add(generatedLine: number, generatedColumn: number, source: Position): void {
    this.#segments.push({ generatedLine, generatedColumn, sourceLine: source.line - 1, sourceColumn: source.column - 1 });
  }

  toJSON(file: string, sourceName: string, sourceContent: string): SourceMapV3 {
    const segments = [...this.#segments].sort((a, b) => a.generatedLine - b.generatedLine || a.generatedColumn - b.generatedColumn);
    const lines: string[] = [];
    let previousSourceLine = 0;
    let previousSourceColumn = 0;
    let line = 0;
    let current: string[] = [];
    let previousColumn = 0;
    for (const segment of segments) {
      while (line < segment.generatedLine) {
        lines.push(current.join(","));
        current = [];
        previousColumn = 0;
        line++;
      }
      current.push(vlq(segment.generatedColumn - previousColumn) + vlq(0) + vlq(segment.sourceLine - previousSourceLine) + vlq(segment.sourceColumn - previousSourceColumn));
      previousColumn = segment.generatedColumn;
      previousSourceLine = segment.sourceLine;
      previousSourceColumn = segment.sourceColumn;
    }
    lines.push(current.join(","));
    return { version: 3, file, sources: [sourceName], sourcesContent: [sourceContent], names: [], mappings: lines.join(";") };
  }
}
