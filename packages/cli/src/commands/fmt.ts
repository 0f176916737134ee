import { writeFileDurably } from "@temporal/agent-sdk/node";
import type { Diagnostic } from "@temporal/compiler";
import type { Plugin } from "prettier";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, messageOf } from "../errors.js";
import { problemLine, readMissionFiles, writeProblem, type SourceFile } from "../files.js";
import { renderForTerminal } from "../terminal.js";

export interface FmtOptions {
  check: boolean;
  write: boolean;
  /** Print one JSON report on stdout: each file's status, and a summary. */
  json?: boolean;
  /** Print only errors: no list of files, no summary line. */
  quiet?: boolean;
  stdinFilepath?: string;
}

/**
 * What happened to one file. An error (a syntax error, a file that is not UTF-8 text, Prettier's other failures, a
 * failed write) has either the compiler's diagnostics or a code with its message, never a message alone.
 */
type FileReport =
  | { path: string; status: "formatted" | "unformatted" | "written" }
  | { path: string; status: "error"; diagnostics: Diagnostic[] }
  | {
      path: string;
      status: "error";
      /** FORMAT_FAILED when Prettier could not format the file (its configuration or a plugin failed), WRITE_FAILED when `--write` could not rewrite it. */
      code: "FORMAT_FAILED" | "WRITE_FAILED";
      message: string;
    };

/**
 * Formats mission files through Prettier and prettier-plugin-mission, so
 * `temporalc fmt` and the Prettier CLI always agree. Exit codes follow
 * Prettier's: 0 formatted, 1 `--check` found unformatted files, 2 errors.
 */
export async function runFmt(paths: string[], options: FmtOptions): Promise<number> {
  if (options.check && options.write) throw new UsageError("INVALID_ARGUMENT", "use either --check or --write, not both");
  const { files, problems } = await readMissionFiles(paths.length > 0 ? paths : ["."], { stdinFilepath: options.stdinFilepath });
  if (options.write && files.some((file) => file.stdin)) throw new UsageError("INVALID_ARGUMENT", "standard input (-) cannot be rewritten; leave out --write to print it formatted");
  const json = options.json === true;
  const listOnly = !options.check && !options.write && (json || files.length + problems.length > 1);
  const reports: FileReport[] = [];

  for (const file of files) {
    const report = await formatOne(file, options, listOnly);
    reports.push(report);
    if (json) continue;
    if ("diagnostics" in report) process.stderr.write(renderForTerminal(report.diagnostics, file.text, process.stderr));
    else if ("code" in report) process.stderr.write(problemLine(report));
    const listing = options.check || options.write || listOnly;
    if (listing && !options.quiet && (report.status === "written" || report.status === "unformatted")) process.stdout.write(`${file.path}\n`);
  }

  const count = (status: FileReport["status"]) => reports.filter((r) => r.status === status).length;
  const summary = { files: files.length, formatted: count("formatted"), unformatted: count("unformatted"), written: count("written"), errors: count("error"), unreadable: problems.length };
  if (json) {
    process.stdout.write(`${JSON.stringify({ files: reports, problems, summary }, null, 2)}\n`);
  } else {
    for (const problem of problems) process.stderr.write(problemLine(problem));
    if (!options.quiet && (options.check || options.write || listOnly)) process.stderr.write(`${describeSummary(summary, options.write)}\n`);
  }
  if (summary.errors + summary.unreadable > 0) return EXIT_USAGE;
  return options.check && summary.unformatted > 0 ? EXIT_FAILURE : EXIT_OK;
}

/** Formats one file and, as the options say, prints it, or rewrites it; never a file that did not parse or decode. */
async function formatOne(file: SourceFile, options: FmtOptions, listOnly: boolean): Promise<FileReport> {
  const path = file.path;
  if (file.undecodable.length > 0) return { path, status: "error", diagnostics: file.undecodable };
  let formatted: string;
  try {
    formatted = await formatWithPrettier(file.text, file.stdin ? options.stdinFilepath : path);
  } catch (error) {
    // A syntax error carries the compiler's diagnostics; they are shown as `check` shows them.
    const diagnostics = (error as { diagnostics?: Diagnostic[] }).diagnostics;
    return diagnostics === undefined ? { path, status: "error", code: "FORMAT_FAILED", message: messageOf(error) } : { path, status: "error", diagnostics };
  }
  const changed = formatted !== file.text;
  if (options.write) {
    if (!changed) return { path, status: "formatted" };
    try {
      await writeFileDurably(path, formatted, { mode: 0o666 });
      return { path, status: "written" };
    } catch (error) {
      // writeProblem's words, as compile and check --fix report a failed write, in a file report's order (path, status, code, message; docs/format.md).
      const { code, message } = writeProblem(path, error);
      return { path, status: "error", code, message };
    }
  }
  if (!options.check && !listOnly) process.stdout.write(formatted);
  return { path, status: changed ? "unformatted" : "formatted" };
}

async function formatWithPrettier(text: string, filepath: string | undefined): Promise<string> {
  const prettier = await import("prettier");
  const plugin = ((await import("prettier-plugin-mission")) as { default: Plugin }).default;
  const config = filepath === undefined ? {} : ((await prettier.resolveConfig(filepath)) ?? {});
  return prettier.format(text, { ...config, ...(filepath === undefined ? {} : { filepath }), parser: "mission", plugins: [plugin] });
}

/** The last line: what was found, and never "all formatted" when some file could not be read, parsed or written. */
function describeSummary(summary: { files: number; formatted: number; unformatted: number; written: number; errors: number; unreadable: number }, write: boolean): string {
  const files = `${summary.files} file${summary.files === 1 ? "" : "s"}`;
  const parts: string[] = [];
  if (write && summary.written > 0) parts.push(`${summary.written} rewritten`);
  if (summary.unformatted > 0) parts.push(`${summary.unformatted} not formatted`);
  if (summary.errors > 0) parts.push(`${summary.errors} with errors (${write ? "left as they are" : "skipped, see above"})`);
  if (summary.unreadable > 0) parts.push(`${summary.unreadable} path${summary.unreadable === 1 ? "" : "s"} could not be read`);
  const fix = summary.unformatted > 0 ? "; run temporalc fmt --write to fix" : "";
  if (parts.length === 0) return `${write ? "formatted" : "checked"} ${files}: all formatted`;
  // With errors, say how many did pass, so no one reads the line as a clean bill.
  if (summary.formatted > 0 && summary.errors + summary.unreadable > 0) parts.push(`${summary.formatted} formatted`);
  return `${write ? "formatted" : "checked"} ${files}: ${parts.join(", ")}${fix}`;
}
