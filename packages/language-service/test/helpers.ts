import { TextDocument } from "../src/index.js";
import type { Position } from "vscode-languageserver-types";

/** A document from source with one cursor marker `|`, and the marker's position. */
export function withCursor(marked: string, uri = "file:///test.mission"): { document: TextDocument; position: Position; offset: number } {
  const offset = marked.indexOf("|");
  if (offset < 0 || marked.indexOf("|", offset + 1) >= 0) throw new Error("withCursor: mark exactly one cursor with |");
  const document = TextDocument.create(uri, "mission", 1, marked.slice(0, offset) + marked.slice(offset + 1));
  return { document, position: document.positionAt(offset), offset };
}

export function documentOf(text: string, uri = "file:///test.mission"): TextDocument {
  return TextDocument.create(uri, "mission", 1, text);
}

/** 2026-11-25 19:25 UTC, a Wednesday: the fixed "now" of these tests. */
export const NOW = new Date("2026-11-25T19:25:00Z");
