import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bundledPackages, packagesOfModules, renderNotices } from "../../packages/cli/scripts/third-party-notices.mjs";
import { writeFiles } from "./fresh-project.js";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fixture(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), "temporalc-notices-"));
  writeFiles(dir, files);
  return dir;
}

const manifest = (name: string, version: string, license: string) => JSON.stringify({ name, version, license });

/** An esbuild metafile listing these inputs (paths relative to the working directory). */
const metafile = (...inputs: string[]) => ({ inputs: Object.fromEntries(inputs.map((input) => [input, {}])) });

describe("THIRD_PARTY_NOTICES", () => {
  it("holds each bundled package once, with its own licence text, sorted by name and version", () => {
    const cwd = fixture({
      "node_modules/zeta/package.json": manifest("zeta", "1.0.0", "MIT"),
      "node_modules/zeta/LICENSE": "zeta licence\r\n",
      "node_modules/@scope/alpha/package.json": manifest("@scope/alpha", "2.0.0", "Apache-2.0"),
      "node_modules/@scope/alpha/LICENSE.md": "alpha licence",
      "node_modules/zeta/node_modules/beta/package.json": manifest("beta", "0.1.0", "ISC"),
      "node_modules/zeta/node_modules/beta/COPYING": "beta licence",
    });
    const inputs = [
      "src/main.ts",
      "../compiler/dist/index.js",
      "node_modules/zeta/index.js",
      "node_modules/zeta/lib/more.js",
      "node_modules/zeta/node_modules/beta/index.js",
      "node_modules/@scope/alpha/dist/a.js",
    ];
    const packages = bundledPackages(metafile(...inputs), cwd);
    expect(packages).toEqual([
      { name: "@scope/alpha", version: "2.0.0", license: "Apache-2.0", text: "alpha licence" },
      { name: "beta", version: "0.1.0", license: "ISC", text: "beta licence" },
      { name: "zeta", version: "1.0.0", license: "MIT", text: "zeta licence" },
    ]);
    const rendered = renderNotices(packages);
    expect(rendered).toContain("@scope/alpha@2.0.0 (Apache-2.0)\n");
    expect(rendered.indexOf("beta@0.1.0")).toBeLessThan(rendered.indexOf("zeta@1.0.0"));
    // The order esbuild lists its inputs in does not change a byte.
    expect(renderNotices(bundledPackages(metafile(...[...inputs].reverse()), cwd))).toBe(rendered);
  });

  it("names the packages of absolute module paths, as a Vite build's module ids give them, and not our own files", () => {
    const cwd = fixture({
      "node_modules/@codemirror/view/package.json": manifest("@codemirror/view", "6.0.0", "MIT"),
      "node_modules/@codemirror/view/LICENSE": "view licence",
      "packages/compiler/dist/index.js": "",
    });
    const modules = [join(cwd, "node_modules/@codemirror/view/dist/index.js"), join(cwd, "node_modules/@codemirror/view/dist/extra.js"), join(cwd, "packages/compiler/dist/index.js")];
    expect(packagesOfModules(modules, "@temporal/playground")).toEqual([{ name: "@codemirror/view", version: "6.0.0", license: "MIT", text: "view licence" }]);
    expect(renderNotices(packagesOfModules(modules), "@temporal/playground")).toMatch(/^@temporal\/playground bundles the following/);
  });

  it("refuses to build when a bundled package ships no licence file", () => {
    const cwd = fixture({ "node_modules/bare/package.json": manifest("bare", "1.0.0", "MIT"), "node_modules/bare/index.js": "" });
    expect(() => bundledPackages(metafile("node_modules/bare/index.js"), cwd)).toThrow(/bare is bundled into temporalc but ships no licence file/);
  });
});
