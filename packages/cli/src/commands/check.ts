import { writeFileDurably } from "@temporal/agent-sdk/node";
import { compile, fixAll, type Diagnostic } from "@temporal/compiler";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "../errors.js";
import { problemLine, readMissionFiles, writeProblem, type FileProblem, type SourceFile } from "../files.js";
import { renderForTerminal } from "../terminal.js";
import { toGithubAnnotations, toSarif, type CheckedFile } from "./check-formats.js";

declare const TEMPORALC_VERSION: string;

export interface CheckOptions {
  /** Print one JSON report instead of text (`--json`, or the older `--format json`). */
  json?: boolean;
  /** `sarif` (SARIF 2.1.0) and `github` (workflow commands) are for CI. */
  format?: "text" | "json" | "sarif" | "github";
  /** Apply each diagnostic's fix when it has exactly one, check again, and rewrite the file. */
  fix?: boolean;
  maxWarnings?: number;
  /** Print only the errors: no warnings, no summary line. */
  quiet?: boolean;
  stdinFilepath?: string;
}

/** A file's diagnostics: the decoding's when it is not UTF-8 text, else the compiler's. */
function diagnoseFile(file: SourceFile): CheckedFile {
  if (file.undecodable.length > 0) return { path: file.path, diagnostics: file.undecodable };
  const { diagnostics, ast } = compile(file.text, { filename: file.path });
  return { path: file.path, diagnostics, ast };
}

/** A file as `check` leaves it: its diagnostics, its text (for code frames), how many fixes were made, and a failed rewrite. */
interface FileOutcome {
  checked: CheckedFile;
  text: string;
  fixed: number;
  problem?: FileProblem;
}

/**
 * `--fix`: the file's text with its unambiguous fixes applied, rewritten atomically when that changed anything; the
 * diagnostics are the new text's. A file that cannot be rewritten keeps its own diagnostics and is a WRITE_FAILED
 * problem, as in `compile`: the other files are still fixed.
 */
async function fixFile(file: SourceFile): Promise<FileOutcome> {
  if (file.undecodable.length > 0) return { checked: diagnoseFile(file), text: file.text, fixed: 0 };
  const result = fixAll(file.text, file.path);
  if (result.applied > 0) {
    try {
      await writeFileDurably(file.path, result.text, { mode: 0o666 });
    } catch (error) {
      return { checked: diagnoseFile(file), text: file.text, fixed: 0, problem: writeProblem(file.path, error) };
    }
  }
  return { checked: { path: file.path, diagnostics: result.diagnostics, ast: result.ast }, text: result.text, fixed: result.applied };
}

export async function runCheck(paths: string[], options: CheckOptions): Promise<number> {
  const format = options.json === true ? "json" : (options.format ?? "text");
  const { files, problems } = await readMissionFiles(paths, { stdinFilepath: options.stdinFilepath });
  if (options.fix === true && files.some((file) => file.stdin)) throw new UsageError("INVALID_ARGUMENT", "standard input (-) cannot be fixed in place; name the file instead");
  const checked: CheckedFile[] = [];
  let fixed = 0;
  let text = "";
  for (const file of files) {
    const result: FileOutcome = options.fix === true ? await fixFile(file) : { checked: diagnoseFile(file), text: file.text, fixed: 0 };
    checked.push(result.checked);
    fixed += result.fixed;
    if (result.problem !== undefined) problems.push(result.problem);
    if (format === "text") text += renderForTerminal(result.checked.diagnostics, result.text, process.stdout, options.quiet);
  }
  // As compile and fmt do: in text, one line each on standard error; in JSON, SARIF and annotations, in the report only.
  if (format === "text") for (const problem of problems) process.stderr.write(problemLine(problem));

  const diagnostics: Diagnostic[] = checked.flatMap((c) => c.diagnostics);
  const summary = {
    files: files.length,
    errors: diagnostics.filter((d) => d.severity === "error").length,
    warnings: diagnostics.filter((d) => d.severity === "warning").length,
    ...(options.fix === true ? { fixed } : {}),
  };
  if (format === "json") {
    process.stdout.write(`${JSON.stringify({ diagnostics, problems, summary }, null, 2)}\n`);
  } else if (format === "sarif") {
    process.stdout.write(`${JSON.stringify(toSarif(checked, problems, TEMPORALC_VERSION, process.cwd()), null, 2)}\n`);
  } else if (format === "github") {
    process.stdout.write(toGithubAnnotations(checked, problems, process.cwd()));
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

function describeSummary(summary: { files: number; errors: number; warnings: number; fixed?: number }, maxWarnings: number | undefined): string {
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const fixed = summary.fixed === undefined ? "" : `, ${count(summary.fixed, "problem")} fixed`;
  const line = `checked ${count(summary.files, "file")}: ${count(summary.errors, "error")}, ${count(summary.warnings, "warning")}${fixed}`;
  if (maxWarnings !== undefined && summary.warnings > maxWarnings) return `${line} (more than --max-warnings ${maxWarnings})`;
  return line;
}
