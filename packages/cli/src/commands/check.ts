import { compile, renderDiagnostics, type Diagnostic } from "@temporal/compiler";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "../errors.js";
import { readMissionFiles } from "../files.js";
import { useColor } from "../terminal.js";

export interface CheckOptions {
  format: "text" | "json";
  maxWarnings?: number;
}

export async function runCheck(paths: string[], options: CheckOptions): Promise<number> {
  const { files, problems } = await readMissionFiles(paths);
  const diagnostics: Diagnostic[] = [];
  const color = useColor(process.stdout);
  let text = "";
  for (const file of files) {
    const result = compile(file.text, { filename: file.path });
    diagnostics.push(...result.diagnostics);
    if (options.format === "text" && result.diagnostics.length > 0) {
      text += `${renderDiagnostics(result.diagnostics, file.text, { color })}\n`;
    }
  }
  for (const problem of problems) process.stderr.write(`temporalc: cannot read ${problem.path}: ${problem.message}\n`);

  const summary = {
    files: files.length,
    errors: diagnostics.filter((d) => d.severity === "error").length,
    warnings: diagnostics.filter((d) => d.severity === "warning").length,
  };
  if (options.format === "json") {
    process.stdout.write(`${JSON.stringify({ diagnostics, summary }, null, 2)}\n`);
  } else {
    process.stdout.write(`${text}${describeSummary(summary, options.maxWarnings)}\n`);
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
