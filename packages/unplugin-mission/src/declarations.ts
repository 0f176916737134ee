import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { writeFileDurably } from "@temporal/agent-sdk/node";

/**
 * Where TypeScript looks for the types of `import "./x.mission"` when
 * `allowArbitraryExtensions` is on: `x.d.mission.ts`, next to the mission
 * (`x.d.msn.ts` for a custom `include` of `x.msn`, `x.d.ts` for a name
 * without an extension). Always a `.ts` name, so never the source's.
 */
export function declarationPath(missionPath: string): string {
  const extension = extname(missionPath);
  return `${missionPath.slice(0, missionPath.length - extension.length)}.d${extension}.ts`;
}

/** The latest text asked for each declaration path that a write loop has not yet taken. */
const wanted = new Map<string, string>();
/** The write loop of each declaration path being written: one at a time per file. */
const writing = new Map<string, Promise<void>>();

/**
 * Writes the declaration file for a mission. Requests for a file that is
 * being written (Vite's client and SSR builds compile the same mission at
 * once) wait for that write and then write only the latest text asked for;
 * every caller's promise settles when the file holds that text.
 */
export function writeDeclarations(missionPath: string, dts: string): Promise<void> {
  const path = declarationPath(missionPath);
  wanted.set(path, dts);
  let loop = writing.get(path);
  if (loop === undefined) {
    loop = writeWanted(path);
    writing.set(path, loop);
  }
  return loop;
}

async function writeWanted(path: string): Promise<void> {
  try {
    for (let text = wanted.get(path); text !== undefined; text = wanted.get(path)) {
      wanted.delete(path);
      await writeIfChanged(path, text);
    }
  } finally {
    // In the same turn as the last check of `wanted`, so no request can join a loop that has stopped.
    writing.delete(path);
    // After a failure, the requests that joined this loop get its error: their text goes with it.
    wanted.delete(path);
  }
}

/**
 * Leaves a file that already holds the text alone, so an unchanged mission
 * never wakes a file watcher; else replaces it atomically, so the type
 * checker never reads half a file.
 */
async function writeIfChanged(path: string, text: string): Promise<void> {
  const current = await readFile(path, "utf8").catch(() => undefined);
  if (current === text) return;
  await writeFileDurably(path, text, { mode: 0o666 });
}
