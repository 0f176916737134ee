import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { describeIoError, makeDirectory, writeFileDurably } from "@temporal/agent-sdk/node";
import { compile, type CompileResult, type Diagnostic } from "@temporal/compiler";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "../errors.js";
import { problemLine, readMissionFiles, writeProblem, type SourceFile } from "../files.js";
import { renderForTerminal } from "../terminal.js";

export interface CompileCommandOptions {
  outDir?: string;
  format: "esm" | "cjs";
  sourcemap: boolean;
  /** Also write the TypeScript declarations, <name>.d.mts (or .d.cts), beside each module. */
  dts?: boolean;
  stdout: boolean;
  /** Print one JSON report on stdout instead of diagnostics and a summary on stderr. */
  json?: boolean;
  /** Print only the errors: no warnings, no summary line. */
  quiet?: boolean;
}

interface Planned {
  file: SourceFile;
  output: string;
}

/** One file's outcome in the `--json` report. */
interface FileReport {
  path: string;
  output: string;
  written: boolean;
  diagnostics: Diagnostic[];
}

export async function runCompile(paths: string[], options: CompileCommandOptions): Promise<number> {
  if (options.stdout && options.json === true) throw new UsageError("INVALID_ARGUMENT", "--stdout prints the module, so it cannot be used with --json");
  const { files, problems } = await readMissionFiles(paths);
  if (options.stdout && files.length + problems.length !== 1) throw new UsageError("INVALID_ARGUMENT", "--stdout takes exactly one mission file");
  if (options.stdout && options.dts === true) throw new UsageError("INVALID_ARGUMENT", "--dts writes files, so it cannot be used with --stdout");
  if (!options.stdout && files.some((file) => file.stdin)) throw new UsageError("INVALID_ARGUMENT", "standard input (-) can be compiled only with --stdout");
  const planned = plan(files, options);
  if (options.outDir !== undefined && !options.stdout && planned.length > 0) {
    // Once, up front: a folder that cannot be made fails the command with its cause, not every file.
    await makeDirectory(options.outDir).catch((error: unknown) => {
      throw new UsageError("WRITE_FAILED", `--out-dir ${options.outDir}: ${describeIoError(error)}`);
    });
  }
  const reports: FileReport[] = [];
  let failed = 0;
  let written = 0;

  for (const { file, output } of planned) {
    const result =
      file.undecodable.length > 0
        ? { diagnostics: file.undecodable, code: undefined, map: undefined, dts: undefined }
        : compile(file.text, {
            filename: file.path,
            format: options.format,
            sourceMap: options.sourcemap && !options.stdout,
            declarations: options.dts === true && !options.stdout,
          });
    const report: FileReport = { path: file.path, output, written: false, diagnostics: result.diagnostics };
    reports.push(report);
    if (options.json !== true) process.stderr.write(renderForTerminal(result.diagnostics, file.text, process.stderr, options.quiet));
    if (result.code === undefined) {
      failed++;
      continue;
    }
    if (options.stdout) {
      process.stdout.write(result.code);
      continue;
    }
    try {
      await writeModule(file.path, output, result.code, result);
      report.written = true;
      written++;
    } catch (error) {
      if (!(error instanceof OutputNotWritten)) throw error;
      problems.push(writeProblem(error.path, error.cause));
    }
  }

  const summary = { files: planned.length, written, failed };
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify({ files: reports, problems, summary }, null, 2)}\n`);
  } else {
    for (const problem of problems) process.stderr.write(problemLine(problem));
    if (!options.stdout && options.quiet !== true) {
      const failures = failed > 0 ? `, ${failed} with errors (nothing written for ${failed === 1 ? "it" : "them"})` : "";
      process.stderr.write(`compiled ${written} of ${planned.length} file${planned.length === 1 ? "" : "s"}${failures}\n`);
    }
  }
  if (problems.length > 0) return EXIT_USAGE;
  return failed > 0 ? EXIT_FAILURE : EXIT_OK;
}

/**
 * Writes the module compiled from `source` at `output`, in a folder that exists (the source's, or `--out-dir`, made up
 * front): with `map`, the source map beside it, linked from the module; with `dts`, the declarations, first, so that
 * they are in place when the module appears.
 */
async function writeModule(source: string, output: string, code: string, { map, dts }: Pick<CompileResult, "map" | "dts">): Promise<void> {
  let module = code;
  if (map !== undefined) {
    // Both are URLs, relative to the output's folder: each path segment is percent-encoded (spaces, `%`, `#`).
    const sourceUrl = relative(dirname(output), source).split(sep).map(encodeURIComponent).join("/");
    await writeOutput(`${output}.map`, `${JSON.stringify({ ...map, sources: [sourceUrl] })}\n`);
    module += `//# sourceMappingURL=${encodeURIComponent(basename(output))}.map\n`;
  }
  if (dts !== undefined) await writeOutput(declarationPath(output), dts);
  await writeOutput(output, module);
}

/** Replaces one output file atomically; a failure names this file, so the problem says which of the outputs it was. */
async function writeOutput(path: string, text: string): Promise<void> {
  await writeFileDurably(path, text, { mode: 0o666 }).catch((error: unknown) => {
    throw new OutputNotWritten(path, error);
  });
}

/** A file of a module's outputs could not be written: WRITE_FAILED for `path`, beside the other files' results. */
class OutputNotWritten extends Error {
  constructor(
    readonly path: string,
    override readonly cause: unknown,
  ) {
    super(`cannot write ${path}`);
  }
}

/** Where each file's module goes; refuses two sources that would write one output. */
function plan(files: SourceFile[], options: CompileCommandOptions): Planned[] {
  const extension = options.format === "esm" ? ".mjs" : ".cjs";
  const byOutput = new Map<string, SourceFile>();
  return files.map((file) => {
    const name = basename(file.path).replace(/\.mission$/, "") + extension;
    const output = options.outDir === undefined ? join(dirname(file.path), name) : join(options.outDir, name);
    const clash = byOutput.get(resolve(output));
    if (clash !== undefined && !options.stdout) throw new UsageError("OUTPUT_CLASH", `${clash.path} and ${file.path} would both be written to ${output}`);
    byOutput.set(resolve(output), file);
    return { file, output };
  });
}

/** `x.mjs` -> `x.d.mts`, `x.cjs` -> `x.d.cts`: the file TypeScript reads the module's types from. */
function declarationPath(output: string): string {
  return output.replace(/\.([mc])js$/u, ".d.$1ts");
}
