import { readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { writeApp, type App } from "./app.js";
import { buildWithRollup } from "./bundlers.js";

const CLIENT = join(dirname(fileURLToPath(import.meta.url)), "..", "client.d.ts");

const apps: App[] = [];
afterAll(() => Promise.all(apps.map((app) => app.remove())));

/** The last program: the next one reuses its parsed lib files instead of parsing them again, which is most of the cost. */
let previous: ts.Program | undefined;

/** Type-checks files as a strict NodeNext project would, returning the error messages. */
function typeErrors(files: string[]): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    verbatimModuleSyntax: true,
    allowArbitraryExtensions: true,
    skipLibCheck: true,
    types: [],
    // The apps use no DOM: without the default lib.dom.d.ts there is half as much to parse.
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts"],
  };
  const program = ts.createProgram(files, options, undefined, previous);
  previous = program;
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

async function typedApp(name: string, code: string): Promise<App & { file: string }> {
  const app = await writeApp(name);
  apps.push(app);
  await writeFile(join(app.dir, "package.json"), '{ "type": "module" }\n');
  const file = join(app.dir, "typed.ts");
  await writeFile(file, code);
  return { ...app, file };
}

describe("typed imports", () => {
  it("unplugin-mission/client declares every .mission module with the generic shape", async () => {
    const app = await typedApp(
      "client",
      `import missions, { missions as all } from "./window.mission";
const run: Promise<{ verdict: "ALLOW" | "DENY" }> | undefined = missions["late_shift"]?.run({ clock: () => 0 });
export const count: number = Object.keys(all).length;
export { run };
`,
    );
    expect(typeErrors([CLIENT, app.file])).toEqual([]);
  });

  it("dts: true writes exact types, which name each mission", async () => {
    const app = await typedApp(
      "dts",
      `import { late_shift } from "./window.mission";
import { missions } from "./carbon.mission";
export const names: string[] = [late_shift.name, missions.green_build.name];
// @ts-expect-error: no such mission in the file
export const typo = missions.green_bild;
`,
    );
    await buildWithRollup(app, { dts: true });
    expect(typeErrors([app.file])).toEqual([]);
  });

  it("dts: true with a custom include writes x.d.msn.ts, which TypeScript reads for x.msn", async () => {
    const app = await typedApp(
      "dts-msn",
      `import { green_build } from "./carbon.msn";
export const name: string = green_build.name;
`,
    );
    await rename(join(app.dir, "carbon.mission"), join(app.dir, "carbon.msn"));
    await writeFile(app.entry, (await readFile(app.entry, "utf8")).replace("./carbon.mission", "./carbon.msn"));
    await buildWithRollup(app, { include: [/\.mission$/, /\.msn$/], dts: true });
    expect(typeErrors([app.file])).toEqual([]);
  });
});
