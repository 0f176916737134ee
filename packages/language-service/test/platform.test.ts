import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const srcDir = fileURLToPath(new URL("../src/", import.meta.url));

describe("platform-free", () => {
  it("bundles for a browser (a Web Worker) with every dependency, no Node built-in reached", async () => {
    const result = await build({
      entryPoints: [`${srcDir}index.ts`],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    expect(result.errors).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/from\s*["']node:|require\(["']node:/);
  }, 30_000);

  it("its source uses neither `process` nor `Buffer`", () => {
    for (const file of readdirSync(srcDir).filter((name) => name.endsWith(".ts"))) {
      const code = readFileSync(`${srcDir}${file}`, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      expect(code, file).not.toMatch(/\bprocess\.|\bBuffer\b|["']node:/);
    }
  });
});
