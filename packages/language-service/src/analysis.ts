import { diagnose, tokenize, type Diagnostic, type MissionFile, type MissionModel, type ScannedSource, type SourceRange } from "@temporal/compiler";
import type { Range } from "vscode-languageserver-types";
import type { TextDocument } from "vscode-languageserver-textdocument";

/**
 * What the compiler says about one version of a document: its tree, its
 * mission model, its diagnostics (exactly `temporalc check`'s: the same
 * `diagnose` the CLI's `compile` runs) and its tokens. Every feature reads
 * this; none re-reads the text.
 */
export interface Analysis {
  document: TextDocument;
  text: string;
  ast: MissionFile;
  model: MissionModel;
  diagnostics: Diagnostic[];
  /** Tokenized on first use: only completion and semantic tokens need them, and diagnostics after an edit should not wait for them. */
  readonly scanned: ScannedSource;
}

export function analyzeDocument(document: TextDocument): Analysis {
  const text = document.getText();
  const { ast, model, diagnostics } = diagnose(text, document.uri);
  let scanned: ScannedSource | undefined;
  return {
    document,
    text,
    ast,
    model,
    diagnostics,
    get scanned() {
      return (scanned ??= tokenize(text));
    },
  };
}

/**
 * One analysis per document, redone only when the version or the text
 * changes (a caller may make a fresh `TextDocument` of the same version).
 */
export class AnalysisCache {
  readonly #entries = new Map<string, Analysis>();

  get(document: TextDocument): Analysis {
    const cached = this.#entries.get(document.uri);
    if (cached !== undefined && cached.document.version === document.version && cached.text === document.getText()) return cached;
    const analysis = analyzeDocument(document);
    this.#entries.set(document.uri, analysis);
    return analysis;
  }

  forget(uri: string): void {
    this.#entries.delete(uri);
  }
}

/** A compiler range as an LSP range: offsets are what count (UTF-16 code units, any line break). */
export function toRange(document: TextDocument, range: SourceRange): Range {
  return { start: document.positionAt(range.start.offset), end: document.positionAt(range.end.offset) };
}

/** Whether `offset` lies in `range` or just after its end (a cursor after the last character still touches it). */
export function touches(range: SourceRange, offset: number): boolean {
  return range.start.offset <= offset && offset <= range.end.offset;
}

/** The innermost of `ranges` that the offset touches, preferring a range that starts at the offset over one that ends there. */
export function innermost<T extends { range: SourceRange }>(items: readonly T[], offset: number): T | undefined {
  let best: T | undefined;
  for (const item of items) {
    if (!touches(item.range, offset)) continue;
    if (best === undefined || width(item.range) < width(best.range) || (width(item.range) === width(best.range) && item.range.start.offset === offset)) best = item;
  }
  return best;
}

function width(range: SourceRange): number {
  return range.end.offset - range.start.offset;
}
