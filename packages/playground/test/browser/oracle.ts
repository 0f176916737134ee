// What the playground should show, asked of the toolchain itself in Node: the built CLI (`bin/temporalc`, with TZ pinned
// to the page's zone), the language service, and share links as the playground encodes them (docs/playground.md).
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { deflateRawSync } from "node:zlib";
import { createLanguageService, TextDocument, type LanguageService } from "@temporal/language-service";
import { PAGE_TIME_ZONE } from "./site.js";

const TEMPORALC = fileURLToPath(new URL("../../../../bin/temporalc", import.meta.url));

export interface PlaygroundSettings {
  at: number | null;
  carbon: number | null;
  hsBloch: number | null;
}

/** A share link's fragment: `#v1.` + base64url(deflate-raw(JSON of the source and settings)). */
export function shareFragment(source: string, settings: PlaygroundSettings): string {
  return `#v1.${deflateRawSync(JSON.stringify({ source, settings })).toString("base64url")}`;
}

/** Runs `temporalc <args...>` on `source` saved as playground.mission in a throw-away folder, in the page's time zone. */
export async function temporalc(source: string, args: (file: string, dir: string) => string[]): Promise<{ stdout: string; dir: string; cleanUp(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "playground-e2e-"));
  const file = join(dir, "playground.mission");
  await writeFile(file, source);
  const { stdout } = await promisify(execFile)(process.execPath, [TEMPORALC, ...args(file, dir)], { env: { ...process.env, TZ: PAGE_TIME_ZONE, NO_COLOR: "1" }, timeout: 30_000 });
  return { stdout, dir, cleanUp: () => rm(dir, { recursive: true, force: true }) };
}

/** `temporalc run --dry-run --json`'s verdict for the file's only mission at `at`, with a carbon measure. */
export async function cliVerdict(source: string, at: number, carbon: number): Promise<string> {
  const run = await temporalc(source, (file) => ["run", file, "--at", new Date(at).toISOString(), "--carbon", String(carbon), "--dry-run", "--json"]);
  await run.cleanUp();
  return (JSON.parse(run.stdout) as { verdict: string }).verdict;
}

/** The SVG `temporalc show --at --svg` writes for the source. */
export async function cliDialSvg(source: string, at: number): Promise<string> {
  const show = await temporalc(source, (file, dir) => ["show", file, "--at", new Date(at).toISOString(), "--svg", join(dir, "dial.svg")]);
  const svg = await readFile(join(show.dir, "dial.svg"), "utf8");
  await show.cleanUp();
  return svg;
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
