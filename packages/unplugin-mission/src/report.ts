import { renderDiagnostics, type Diagnostic } from "@temporal/compiler";
import type { UnpluginMessage } from "unplugin";

/**
 * Turns compiler diagnostics into bundler messages. Every message starts
 * with `file:line:column` (1-based, as editors and terminals expect) so it is
 * clickable; `loc` uses the Rollup/esbuild convention of a 0-based column.
 */

/** Rollup and Vite show `frame` under the message (Vite's error overlay too); other bundlers ignore it. */
type MissionMessage = UnpluginMessage & { frame: string };

function describe(d: Diagnostic, id: string): string {
  const { line, column } = d.range.start;
  return `${id}:${line}:${column}: ${d.severity}[${d.code}]: ${d.message}`;
}

/** One error for the whole file, listing every diagnostic, located at the first one. */
export function failure(diagnostics: readonly Diagnostic[], id: string, source: string): MissionMessage {
  const first = diagnostics.find((d) => d.severity === "error") ?? diagnostics[0];
  if (first === undefined) throw new Error("unplugin-mission: failure() needs at least one diagnostic");
  return {
    id,
    code: first.code,
    message: diagnostics.map((d) => describe(d, id)).join("\n"),
    loc: location(first, id),
    frame: renderDiagnostics(diagnostics, source),
  };
}

export function warning(d: Diagnostic, id: string, source: string): MissionMessage {
  return { id, code: d.code, message: describe(d, id), loc: location(d, id), frame: renderDiagnostics([d], source) };
}

function location(d: Diagnostic, id: string): NonNullable<UnpluginMessage["loc"]> {
  return { file: id, line: d.range.start.line, column: d.range.start.column - 1 };
}
