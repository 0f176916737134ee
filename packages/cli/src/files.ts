import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";

export interface SourceFile {
  /** As the user named it, or relative to the folder they named. */
  path: string;
  text: string;
}

export interface ReadProblem {
  path: string;
  message: string;
}

/**
 * Expands folders to the `.mission` files below them (sorted, skipping
 * `node_modules` and hidden folders) and reads every file. Problems are
 * collected, not thrown, so one bad path does not hide the other files' results.
 */
export async function readMissionFiles(paths: string[]): Promise<{ files: SourceFile[]; problems: ReadProblem[] }> {
  const files: SourceFile[] = [];
  const problems: ReadProblem[] = [];
  for (const path of paths) {
    try {
      const info = await stat(path);
      const targets = info.isDirectory() ? await missionFilesBelow(path) : [path];
      if (info.isDirectory() && targets.length === 0) problems.push({ path, message: "no .mission files in this folder" });
      for (const target of targets) files.push({ path: target, text: await readFile(target, "utf8") });
    } catch (error) {
      problems.push({ path, message: describeIoError(error) });
    }
  }
  return { files, problems };
}

async function missionFilesBelow(dir: string): Promise<string[]> {
  const found: string[] = [];
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".")) found.push(...(await missionFilesBelow(path)));
    } else if (entry.isFile() && entry.name.endsWith(".mission")) {
      found.push(path);
    }
  }
  return found;
}

export function describeIoError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return "no such file or folder";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "is a folder";
    case "ENOTDIR":
      return "a part of the path is not a folder";
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
