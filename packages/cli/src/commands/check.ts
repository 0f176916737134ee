import { compile, type Diagnostic } from "@temporal/compiler";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "../errors.js";
import { readMissionFiles, type SourceFile } from "../files.js";
import { renderForTerminal } from "../terminal.js";

export interface CheckOptions {
  /** Print one JSON report instead of text (`--json`, or the older `--format json`). */
  json?: boolean;
  format?: "text" | "json";
  maxWarnings?: number;
  /** Print only the errors: no warnings, no summary line. */
  quiet?: boolean;
  stdinFilepath?: string;
}

/** A file's diagnostics: the decoding's when it is not UTF-8 text, else the compiler's. */
export function diagnoseFile(file: SourceFile): Diagnostic[] {
  return file.undecodable.length > 0 ? file.undecodable : compile(file.text, { filename: file.path }).diagnostics;
}

export async function runCheck(paths: string[], options: CheckOptions): Promise<number> {
  const json = options.json === true || options.format === "json";
  const { files, problems } = await readMissionFiles(paths, { stdinFilepath: options.stdinFilepath });
  const diagnostics: Diagnostic[] = [];
  let text = "";
  for (const file of files) {
    const found = diagnoseFile(file);
    diagnostics.push(...found);
    if (!json) text += renderForTerminal(found, file.text, process.stdout, options.quiet);
  }
  for (const problem of problems) process.stderr.write(`temporalc: cannot read ${problem.path}: ${problem.message}\n`);

  const summary = {
    files: files.length,
    errors: diagnostics.filter((d) => d.severity === "error").length,
    warnings: diagnostics.filter((d) => d.severity === "warning").length,
  };
  if (json) {
    process.stdout.write(`${JSON.stringify({ diagnostics, summary }, null, 2)}\n`);
  } else {
    // Quiet still says why the exit status is 1 when only the warnings are to blame.
    const overWarnings = options.maxWarnings !== undefined && summary.warnings > options.maxWarnings;
    const line = options.quiet === true && !overWarnings ? "" : `${describeSummary(summary, options.maxWarnings)}\n`;
    process.stdout.write(`${text}${line}`);
  }

  if (problems.length > 0) return EXIT_USAGE;
  if (summary.errors > 0) return EXIT_FAILURE;
  if (options.maxWarnings !== undefined && summary.warnings > options.maxWarnings) return EXIT_FAILURE;
  return EXIT_OK;
}

function describeSummary(summary: { files: number; errors: number; warnings: number }, maxWarnings: number | undefined): string {
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const line = `checked ${count(summary.files, "file")}: ${count(summary.errors, "error")}, ${count(summary.warnings, "warning")}`;
  if (maxWarnings !== undefined && summary.warnings > maxWarnings) return `${line} (more than --max-warnings ${maxWarnings})`;
  return line;
}
