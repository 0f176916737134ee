import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { makeDirectory, writeFileDurably } from "@temporal/agent-sdk/node";
import { compile, type Diagnostic } from "@temporal/compiler";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "../errors.js";
import { problemLine, readMissionFiles, type SourceFile } from "../files.js";
import { describeIoError } from "../io-errors.js";
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
    // The file being written when a write fails, so the problem names it (the folder, the map, the declarations or the module).
    let writing = dirname(output);
    try {
      await makeDirectory(writing);
      let code = result.code;
      if (result.map !== undefined) {
        // The map sits beside the output; point it at the source from there.
        // Both are URLs: each path segment is percent-encoded (spaces, `%`, `#`).
        const source = relative(dirname(output), file.path).split(sep).map(encodeURIComponent).join("/");
        writing = `${output}.map`;
        await writeFileDurably(writing, `${JSON.stringify({ ...result.map, sources: [source] })}\n`, { mode: 0o666 });
        code += `//# sourceMappingURL=${encodeURIComponent(basename(output))}.map\n`;
      }
      // The declarations go first, so that they are in place when the module appears.
      if (result.dts !== undefined) {
        writing = declarationPath(output);
        await writeFileDurably(writing, result.dts, { mode: 0o666 });
      }
      writing = output;
      await writeFileDurably(writing, code, { mode: 0o666 });
      report.written = true;
      written++;
    } catch (error) {
      problems.push({ path: writing, code: "WRITE_FAILED", message: `cannot write: ${describeIoError(error)}` });
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
