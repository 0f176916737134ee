// What the playground should show, asked of the toolchain itself in Node: the built CLI (`bin/temporalc`, with TZ pinned
// to the page's zone), the language service, and share links as the playground encodes them (docs/playground.md).
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { deflateRawSync } from "node:zlib";
import { createLanguageService, TextDocument, type LanguageService } from "@temporal/language-service";
import type { PlaygroundSettings } from "../../src/state.js";
import { PAGE_TIME_ZONE } from "./site.js";

const TEMPORALC = fileURLToPath(new URL("../../../../bin/temporalc", import.meta.url));
const TASKS = fileURLToPath(new URL("../../../../examples/tasks.mjs", import.meta.url));

/** A share link's fragment: `#v1.` + base64url(deflate-raw(JSON of the source and settings)). */
export function shareFragment(source: string, settings: PlaygroundSettings): string {
  return `#v1.${deflateRawSync(JSON.stringify({ source, settings })).toString("base64url")}`;
}

const exec = promisify(execFile);
/** The CLI's environment: the page's time zone (the dial's local ring, `--at` read back), no colour, `temporalc` on PATH. */
const CLI_ENV = { ...process.env, TZ: PAGE_TIME_ZONE, NO_COLOR: "1", PATH: `${dirname(TEMPORALC)}${delimiter}${process.env.PATH ?? ""}` };

/**
 * Calls `use` with a throw-away folder holding `source` as playground.mission (the page's file name) and the examples'
 * tasks.mjs (the page's command names `--tasks tasks.mjs`), and removes the folder afterwards.
 */
async function inScratchFolder<T>(source: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "playground-e2e-"));
  try {
    await writeFile(join(dir, "playground.mission"), source);
    await copyFile(TASKS, join(dir, "tasks.mjs"));
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `temporalc run --dry-run --json`'s verdict for the file's only mission at `at`, with a carbon measure. */
export function cliVerdict(source: string, at: number, carbon: number): Promise<string> {
  return inScratchFolder(source, async (dir) => {
    const args = ["run", join(dir, "playground.mission"), "--at", new Date(at).toISOString(), "--carbon", String(carbon), "--dry-run", "--json"];
    const { stdout } = await exec(process.execPath, [TEMPORALC, ...args], { env: CLI_ENV, timeout: 30_000 });
    return (JSON.parse(stdout) as { verdict: string }).verdict;
  });
}

/** The SVG `temporalc show --at --svg` writes for the source. */
export function cliDialSvg(source: string, at: number): Promise<string> {
  return inScratchFolder(source, async (dir) => {
    const args = ["show", join(dir, "playground.mission"), "--at", new Date(at).toISOString(), "--svg", join(dir, "dial.svg")];
    await exec(process.execPath, [TEMPORALC, ...args], { env: CLI_ENV, timeout: 30_000 });
    return readFile(join(dir, "dial.svg"), "utf8");
  });
}

/** A command line as the page shows it, run by a POSIX shell in a folder holding the page's file, with `extra` arguments appended. */
export function runCommandLine(source: string, commandLine: string, extra: string): Promise<string> {
  return inScratchFolder(source, async (dir) => (await exec("sh", ["-c", `${commandLine} ${extra}`], { cwd: dir, env: CLI_ENV, timeout: 30_000 })).stdout);
}

const service = createLanguageService({ viewerTimeZone: PAGE_TIME_ZONE });
const document = (text: string) => TextDocument.create("file:///playground.mission", "mission", 1, text);

export function diagnosticsOf(text: string): ReturnType<LanguageService["diagnostics"]> {
  return service.diagnostics(document(text));
}

export function hoverOf(text: string, offset: number): ReturnType<LanguageService["hover"]> {
  const doc = document(text);
  return service.hover(doc, doc.positionAt(offset));
}
