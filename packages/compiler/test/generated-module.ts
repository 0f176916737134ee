import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Mission as RuntimeMission } from "@temporal/agent-sdk";
import { compile, type CompileOptions } from "../src/index.js";

/** The built SDK, imported by generated modules written outside the repository (`require` takes a path, `import` a URL). */
const SDK_PATH = new URL("../../sdk/dist/index.js", import.meta.url).pathname;
export const SDK_MODULE = pathToFileURL(SDK_PATH).href;

const dir = mkdtempSync(join(tmpdir(), "temporalc-generated-"));
let count = 0;

export function removeGeneratedModules(): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface LoadedModule {
  code: string;
  exports: Record<string, unknown> & { missions: Record<string, RuntimeMission>; default: unknown };
}

/** Compiles `source` (which must have no errors) and writes the module; returns its file URL. */
export function writeGenerated(source: string, format: "esm" | "cjs" = "esm"): string {
  const result = compile(source, { sdkModule: format === "cjs" ? SDK_PATH : SDK_MODULE, format });
  if (result.code === undefined) throw new Error(`expected code, got ${JSON.stringify(result.diagnostics.map((d) => d.message))}`);
  const file = join(dir, `module-${count++}.${format === "cjs" ? "cjs" : "mjs"}`);
  writeFileSync(file, result.code);
  return pathToFileURL(file).href;
}

/** Compiles, writes and imports a module. */
export async function compileAndImport(source: string, options: CompileOptions = {}): Promise<LoadedModule> {
  const url = writeGenerated(source, options.format);
  return { code: compile(source, { sdkModule: SDK_MODULE, ...options }).code!, exports: (await import(url)) as LoadedModule["exports"] };
}
