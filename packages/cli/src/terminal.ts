import { renderDiagnostics, type Diagnostic } from "@temporal/compiler";

/**
 * Colour on a terminal only: `NO_COLOR` (any non-empty value) turns it off,
 * `FORCE_COLOR` (other than 0) turns it on even when piped.
 */
export function useColor(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env["FORCE_COLOR"];
  if (force !== undefined && force !== "") return force !== "0";
  const noColor = env["NO_COLOR"];
  if (noColor !== undefined && noColor !== "") return false;
  return stream.isTTY === true;
}

/** The command that explains a diagnostic code; every diagnostic printed points at it. */
export const EXPLAIN_COMMAND = "temporalc explain";

/**
 * Diagnostics as temporalc prints them on `stream`: code frames, colour on
 * a terminal, each ending with the `temporalc explain <code>` pointer.
 * `quiet` keeps only the errors.
 */
export function renderForTerminal(diagnostics: readonly Diagnostic[], text: string, stream: NodeJS.WriteStream, quiet = false): string {
  const shown = quiet ? diagnostics.filter((d) => d.severity === "error") : diagnostics;
  if (shown.length === 0) return "";
  return `${renderDiagnostics(shown, text, { color: useColor(stream), explainCommand: EXPLAIN_COMMAND })}\n`;
}

/** Clears a terminal's screen and scrollback before a watch run prints again; nothing when piped. */
export function clearScreen(stream: NodeJS.WriteStream): void {
  if (stream.isTTY === true) stream.write("\u001b[2J\u001b[3J\u001b[H");
}
