import plugin, { MissionSyntaxError } from "prettier-plugin-mission";
import { format } from "prettier/standalone";
import type { TextEdit } from "vscode-languageserver-types";
import type { Analysis } from "./analysis.js";

/**
 * Formatting through Prettier's standalone build and the mission plugin, so
 * it runs in a browser too. A file with a syntax error is left as it is
 * (the diagnostics say why): no edits rather than an error.
 */
export async function formatDocument(analysis: Analysis): Promise<TextEdit[]> {
  let formatted: string;
  try {
    formatted = await format(analysis.text, { parser: "mission", plugins: [plugin] });
  } catch (error) {
    if (error instanceof MissionSyntaxError) return [];
    throw error;
  }
  if (formatted === analysis.text) return [];
  const { document } = analysis;
  return [{ range: { start: document.positionAt(0), end: document.positionAt(analysis.text.length) }, newText: formatted }];
}
