import { parse, renderDiagnostics } from "@temporal/compiler";
import { describe, expect, it } from "vitest";
import { MissionSyntaxError } from "../src/index.js";
import { format, hasSyntaxErrors, INVALID_FIXTURES, missionFiles } from "./helpers.js";

/** A file that does not parse is never rewritten: formatting fails with the compiler's diagnostics. */
describe("syntax errors", () => {
  const broken = missionFiles(INVALID_FIXTURES).filter((f) => hasSyntaxErrors(f.source));

  it("the invalid fixtures include syntax errors of every kind", () => {
    const codes = new Set(broken.flatMap((f) => parse(f.source).diagnostics.map((d) => d.code)));
    expect([...codes].sort()).toEqual(expect.arrayContaining(["M100", "M101", "M102", "M103", "M105", "M205"]));
  });

  for (const { name, source } of broken) {
    it(`${name}: rejected with the rendered diagnostics, located at the first error`, async () => {
      const { diagnostics } = parse(source);
      const error = await format(source).then(
        () => expect.unreachable("formatting should have failed"),
        (e: unknown) => e as MissionSyntaxError,
      );
      expect(error).toBeInstanceOf(SyntaxError);
      expect(error.message.startsWith(renderDiagnostics(diagnostics, source).trimEnd())).toBe(true);
      for (const d of diagnostics) expect(error.message).toContain(`${d.severity}[${d.code}]`);
      const first = diagnostics.find((d) => d.severity === "error")!;
      expect(error.loc.start).toEqual({ line: first.range.start.line, column: first.range.start.column });
      expect(error.diagnostics).toEqual(diagnostics);
    });
  }

  it("names the file when Prettier knows it", async () => {
    await expect(format("mission a { on ALLOW { execute } }\n", { filepath: "dir/a.mission" })).rejects.toThrow(/^error\[M102\]: expected a name, found `\}`\n --> dir\/a\.mission:1:32\n/u);
  });

  it("Prettier adds its code frame from `loc`", async () => {
    const error = await format("mission a {\n  require phase [1, 2\n}\n").then(
      () => expect.unreachable("formatting should have failed"),
      (e: unknown) => e as Error & { codeFrame?: string },
    );
    expect(error.codeFrame).toContain("> 3 | }");
  });

  it("warnings and the checker's errors do not stop formatting", async () => {
    const source = "@temporal v9\n@anchor Z99\nmission a { require phase [90,90] require carbon < -1 on ALLOW {} on ALLOW {} }\nmission a {}\n";
    expect(hasSyntaxErrors(source)).toBe(false);
    expect(await format(source)).toBe("@temporal v9\n@anchor Z99\n\nmission a {\n  require phase [90, 90]\n  require carbon < -1\n  on ALLOW {}\n  on ALLOW {}\n}\n\nmission a {}\n");
  });
});
