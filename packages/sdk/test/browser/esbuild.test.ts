import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { writeMissionApp } from "./mission-app.js";

const sdkDir = fileURLToPath(new URL("../../", import.meta.url));

describe("esbuild --bundle --platform=browser of a compiled mission", () => {
  it("succeeds with no errors or warnings, and bundles no Node-only module", async () => {
    const app = await writeMissionApp();
    const result = await build({
      entryPoints: [app.missions],
      absWorkingDir: app.dir,
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    const sdkInputs = Object.keys(result.metafile.inputs)
      .map((input) => relative(sdkDir, fileURLToPath(new URL(input, `file://${app.dir}/`))))
      .filter((input) => !input.startsWith(".."));
    // The default authority is the one for browsers; nothing of dist/node is reached.
    expect(sdkInputs).toContain("dist/web/default-sdk.js");
    expect(sdkInputs).toContain("dist/mission/define-mission.js");
    expect(sdkInputs.filter((input) => input.startsWith("dist/node/"))).toEqual([]);
    const [output] = result.outputFiles;
    expect(output?.text).not.toMatch(/\bnode:|\bBuffer\b|\bprocess\./);
  });
});
