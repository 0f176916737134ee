import { writeFileDurably } from "@temporal/agent-sdk/node";
import { renderDiagnostics, type Diagnostic } from "@temporal/compiler";
import type { Plugin } from "prettier";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "../errors.js";
import { describeIoError, readMissionFiles } from "../files.js";
import { useColor } from "../terminal.js";

export interface FmtOptions {
  check: boolean;
  write: boolean;
}

/**
 * Formats mission files through Prettier and prettier-plugin-mission, so
 * `temporalc fmt` and the Prettier CLI always agree. Exit codes follow
 * Prettier's: 0 formatted, 1 `--check` found unformatted files, 2 errors.
 */
export async function runFmt(paths: string[], options: FmtOptions): Promise<number> {
  if (options.check && options.write) throw new UsageError("use either --check or --write, not both");
  const { files, problems } = await readMissionFiles(paths.length > 0 ? paths : ["."]);
  const prettier = await import("prettier");
  const plugin = ((await import("prettier-plugin-mission")) as { default: Plugin }).default;
  const listOnly = !options.check && !options.write && files.length + problems.length > 1;
  let unformatted = 0;
  let failed = problems.length;

  for (const file of files) {
    let formatted: string;
    try {
      const config = (await prettier.resolveConfig(file.path)) ?? {};
      formatted = await prettier.format(file.text, { ...config, filepath: file.path, parser: "mission", plugins: [plugin] });
    } catch (error) {
      // A syntax error carries the compiler's diagnostics; show them as `check` does. The file is left as it is.
      const diagnostics = (error as { diagnostics?: Diagnostic[] }).diagnostics;
      process.stderr.write(
        diagnostics === undefined
          ? `temporalc: ${file.path}: ${error instanceof Error ? error.message : String(error)}\n`
          : `${renderDiagnostics(diagnostics, file.text, { color: useColor(process.stderr) })}\n`,
      );
      failed++;
      continue;
    }
    const changed = formatted !== file.text;
    if (options.write) {
      if (!changed) continue;
      try {
        await writeFileDurably(file.path, formatted, { mode: 0o666 });
        process.stdout.write(`${file.path}\n`);
      } catch (error) {
        problems.push({ path: file.path, message: `cannot write: ${describeIoError(error)}` });
        failed++;
      }
    } else if (options.check || listOnly) {
      if (changed) {
        unformatted++;
        process.stdout.write(`${file.path}\n`);
      }
    } else {
      process.stdout.write(formatted);
    }
  }

  for (const problem of problems) process.stderr.write(`temporalc: ${problem.path}: ${problem.message}\n`);
  if (options.check || listOnly) {
    const verdict = unformatted === 0 ? "all formatted" : `${unformatted} not formatted; run temporalc fmt --write to fix`;
    process.stderr.write(`checked ${files.length} file${files.length === 1 ? "" : "s"}: ${verdict}\n`);
  }
  if (failed > 0) return EXIT_USAGE;
  return options.check && unformatted > 0 ? EXIT_FAILURE : EXIT_OK;
}
