import { readFile, rename, writeFile } from "node:fs/promises";

/**
 * Where TypeScript looks for the types of `import "./x.mission"` when
 * `allowArbitraryExtensions` is on: `x.d.mission.ts`, next to the mission.
 */
export function declarationPath(missionPath: string): string {
  return missionPath.replace(/\.mission$/, ".d.mission.ts");
}

/**
 * Writes the declaration file unless it already holds this text, so an
 * unchanged mission never touches it (and never wakes a file watcher), and
 * through a rename, so the type checker never reads half a file.
 */
export async function writeDeclarations(missionPath: string, dts: string): Promise<void> {
  const path = declarationPath(missionPath);
  const current = await readFile(path, "utf8").catch(() => undefined);
  if (current === dts) return;
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, dts);
  await rename(temporary, path);
}
