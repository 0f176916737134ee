import { fstatSync, type Dirent, type Stats } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { FileTooLargeError, describeIoError, errnoCode, readSmallFile } from "@temporal/agent-sdk/node";
import { decodeSource, type Diagnostic } from "@temporal/compiler";
import { UsageError, messageErrorLine } from "./errors.js";
import { READ_LIMIT_BYTES, readFailureCode, readFileOrStop } from "./io-errors.js";

export interface SourceFile {
  /** As the user named it, or relative to the folder they named; for standard input, --stdin-filepath or `<stdin>`. */
  path: string;
  /** The decoded text; when `undecodable` is not empty, for code frames only. */
  text: string;
  /** M106 (not a text file) or M107 (invalid UTF-8): such a file is never compiled or rewritten. */
  undecodable: Diagnostic[];
  /** Read from standard input (`-`), not from `path`. */
  stdin: boolean;
}

export interface ReadOptions {
  /** The name standard input (`-`) goes by in diagnostics and for Prettier's configuration; default `<stdin>`. */
  stdinFilepath?: string;
}

/** The path that stands for standard input, as in Prettier and most Unix tools. */
export const STDIN = "-";

/** What names a mission file, in a folder's walk and to `--watch`. */
export const MISSION_EXTENSION = ".mission";

/**
 * A path that `check`, `compile` or `fmt` could not read, or (`compile`, `check --fix`) an output it could not write:
 * reported beside the other files' results, not a stop. `code` is the one other commands stop with for the same problem.
 */
export interface FileProblem {
  path: string;
  code: FileProblemCode;
  /** Why, in words; the text line and `--json` carry the code apart. */
  message: string;
}

/** FILE_NOT_FOUND and FILE_UNREADABLE as `readFileOrStop` tells them apart; WRITE_FAILED as `writeProblem` gives it (`compile`, `check --fix`; `fmt --write` in its file report). */
type FileProblemCode = "FILE_NOT_FOUND" | "FILE_UNREADABLE" | "WRITE_FAILED";

/**
 * Expands folders to the `.mission` files below them (sorted, skipping
 * `node_modules` and hidden folders) and reads every file. Problems are
 * collected, not thrown, so one bad path does not hide the other files' results.
 */
export async function readMissionFiles(paths: string[], options: ReadOptions = {}): Promise<{ files: SourceFile[]; problems: FileProblem[] }> {
  if (paths.filter((path) => path === STDIN).length > 1) throw new UsageError("INVALID_ARGUMENT", "standard input (-) can be read only once");
  if (options.stdinFilepath !== undefined && !paths.includes(STDIN)) throw new UsageError("INVALID_ARGUMENT", "--stdin-filepath names standard input, so it needs - among the files");
  const files: SourceFile[] = [];
  const problems: FileProblem[] = [];
  // The same file named twice (`a.mission ./a.mission`, or inside a folder also named) is read once.
  const seen = new Set<string>();
  for (const path of paths) {
    if (path === STDIN) {
      await readStdin().then(
        (bytes) => files.push(decoded(options.stdinFilepath ?? "<stdin>", bytes, true)),
        (error: unknown) => problems.push(readProblem(STDIN, error)),
      );
      continue;
    }
    let targets: string[];
    try {
      const info = await stat(path);
      if (info.isDirectory()) {
        const before = problems.length;
        targets = await missionFilesBelow(path, new Set([await realpath(path)]), problems);
        // Named to be read, yet nothing is there to read: not found, as for a file that does not exist. Unless a
        // folder could not be listed, or a link in it followed: that one is named instead, and may well hold the files.
        if (targets.length === 0 && problems.length === before) problems.push({ path, code: "FILE_NOT_FOUND", message: "no .mission files in this folder" });
      } else {
        targets = [path];
      }
    } catch (error) {
      problems.push(readProblem(path, error));
      continue;
    }
    // Each file on its own: one that cannot be read (removed since the folder was listed, too large, ...) is reported
    // by its own path, and the folder's other files are still read.
    for (const target of targets) {
      try {
        const real = await realpath(target);
        if (seen.has(real)) continue;
        seen.add(real);
        files.push(decoded(target, await readSmallFile(target, READ_LIMIT_BYTES), false));
      } catch (error) {
        problems.push(readProblem(target, error));
      }
    }
  }
  return { files, problems };
}

function readProblem(path: string, error: unknown): FileProblem {
  return { path, code: readFailureCode(error), message: describeIoError(error) };
}

/** A file that could not be written (`check --fix`, `compile`, `fmt --write`): WRITE_FAILED, beside the other files' results. */
export function writeProblem(path: string, error: unknown): FileProblem & { code: "WRITE_FAILED" } {
  return { path, code: "WRITE_FAILED", message: `cannot write: ${describeIoError(error)}` };
}

/**
 * The one mission file of `temporalc run` or `temporalc show`, read and decoded as `check` reads files: not text
 * (M106) or not UTF-8 (M107) is in `undecodable`, an error of the file. A file that cannot be read stops the command,
 * with the line `check` prints for it (`readFileOrStop`).
 */
export async function readMissionFile(path: string): Promise<SourceFile> {
  return decoded(path, await readFileOrStop(path), false);
}

/**
 * The line on standard error for a problem of `check`, `compile` or `fmt` with a file: `temporalc: <path>: <why> (<CODE>)`,
 * with a newline; a why of several lines (Prettier's, for a configuration file it cannot parse) as `messageErrorLine`
 * lays it out.
 */
export function problemLine(problem: { path: string; code: string; message: string }): string {
  return messageErrorLine(problem.code, problem.message, problem.path);
}

function decoded(path: string, bytes: Uint8Array, stdin: boolean): SourceFile {
  const { text, diagnostics } = decodeSource(bytes, path);
  return { path, text, undecodable: diagnostics, stdin };
}

async function readStdin(): Promise<Uint8Array> {
  // Node makes standard input that is a folder (`temporalc check - < dir`) a stream that ends at once, which would
  // read as an empty mission: say what it is instead.
  if (fstatSync(0).isDirectory()) throw new Error("standard input is a folder");
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    total += (chunk as Buffer).length;
    if (total > READ_LIMIT_BYTES) throw new FileTooLargeError(READ_LIMIT_BYTES);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Where a symbolic link met in a folder's walk leads, or `undefined` when the walk cannot look there. A link whose
 * target cannot be looked at (permission denied on the way, a loop of links, ...) may stand for a mission or a folder
 * of them, so it is a problem of its own path, whatever its name. A dangling one (the target does not exist) is
 * FILE_NOT_FOUND when named `*.mission`, a mission moved or removed; any other is passed over, as links left behind by
 * editors and build tools should not fail a check.
 */
async function followLink(path: string, problems: FileProblem[]): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    if (errnoCode(error) !== "ENOENT" || path.endsWith(MISSION_EXTENSION)) problems.push(readProblem(path, error));
    return undefined;
  }
}

/**
 * Follows symbolic links (`followLink`); `ancestors` (real paths) stops a link that leads back up from looping. A folder that cannot
 * be listed (permission denied, removed meanwhile, ...), the one named or one below it, is a problem of its own path in
 * `problems`, not of the folder named, and the walk goes on with the others.
 */
async function missionFilesBelow(dir: string, ancestors: Set<string>, problems: FileProblem[]): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    problems.push(readProblem(dir, error));
    return [];
  }
  const found: string[] = [];
  for (const entry of entries) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    const info = entry.isSymbolicLink() ? await followLink(path, problems) : entry;
    if (info?.isDirectory()) {
      const real = await realpath(path).catch((error: unknown) => {
        problems.push(readProblem(path, error));
        return undefined;
      });
      if (real !== undefined && !ancestors.has(real)) found.push(...(await missionFilesBelow(path, new Set([...ancestors, real]), problems)));
    } else if (info?.isFile() && entry.name.endsWith(MISSION_EXTENSION)) {
      found.push(path);
    }
  }
  return found;
}
