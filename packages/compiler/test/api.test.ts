import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { check, compile, COMPILER_VERSION, DIAGNOSTIC_CODES, hasErrors, parse } from "../src/index.js";

describe("public API contracts", () => {
  it("throws TypeError for bad arguments, never for bad source", () => {
    expect(() => parse(42 as unknown as string)).toThrow(TypeError);
    expect(() => parse("", { filename: 7 } as unknown as { filename: string })).toThrow(TypeError);
    expect(() => parse("", null as unknown as object)).toThrow(TypeError);
    expect(() => compile(undefined as unknown as string)).toThrow(TypeError);
    expect(() => check({ kind: "Nope" } as never)).toThrow(TypeError);
    expect(() => compile("}}}{{{@@@ \u0000")).not.toThrow();
  });

  it("names the file in every diagnostic, defaulting to <input>", () => {
    expect(compile("mission {").diagnostics.every((d) => d.file === "<input>")).toBe(true);
    expect(compile("mission {", { filename: "x.mission" }).diagnostics.every((d) => d.file === "x.mission")).toBe(true);
  });

  it("check() reads the AST from parse() and adds the semantic diagnostics", () => {
    const { ast, diagnostics } = parse("@temporal v4.6.2\nmission a { require carbon < 0 on ALLOW { execute t } }");
    expect(diagnostics).toEqual([]);
    expect(check(ast).map((d) => d.code)).toEqual(["M400"]);
  });

  it("returns the AST and code when there is no error", () => {
    const result = compile("@temporal v4.6.2\nmission a { on ALLOW { execute t } }");
    expect(hasErrors(result.diagnostics)).toBe(false);
    expect(result.code).toContain("export const a = defineMission({");
    expect(result.ast.missions.map((m) => m.name.name)).toEqual(["a"]);
  });

  it("names its own version in generated code, as its package.json does", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    expect(COMPILER_VERSION).toBe(pkg.version);
  });

  it("keeps diagnostic codes and severities stable", () => {
    expect(Object.entries(DIAGNOSTIC_CODES).map(([code, { severity }]) => `${code}:${severity}`)).toMatchInlineSnapshot(`
      [
        "M100:error",
        "M101:error",
        "M102:error",
        "M103:error",
        "M104:error",
        "M105:info",
        "M106:error",
        "M107:error",
        "M108:error",
        "M200:error",
        "M201:warning",
        "M202:warning",
        "M203:error",
        "M204:error",
        "M205:error",
        "M206:error",
        "M207:warning",
        "M208:info",
        "M300:error",
        "M301:error",
        "M302:warning",
        "M303:error",
        "M304:error",
        "M305:warning",
        "M400:error",
        "M401:warning",
        "M402:warning",
        "M410:error",
        "M411:warning",
        "M412:error",
        "M500:error",
        "M501:error",
        "M502:warning",
        "M503:warning",
        "M504:warning",
        "M505:error",
        "M506:error",
        "M507:error",
        "M508:error",
        "M509:warning",
        "M510:error",
        "M511:error",
        "M512:error",
        "M513:error",
      ]
    `);
  });
});
