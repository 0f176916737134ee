import { describe, expect, it } from "vitest";
import { compile, renderDiagnostics } from "../src/index.js";

describe("renderDiagnostics", () => {
  const source = "@temporal v4.6.2\nmission m {\n\trequire phase [90, 90]\n  on ALLOW { execute a }\n}\n";
  const { diagnostics } = compile(source, { filename: "m.mission" });

  it("prints a code frame with the span underlined, the help and the location", () => {
    expect(renderDiagnostics(diagnostics, source)).toBe(
      [
        "error[M301]: the window [90, 90] has zero width",
        " --> m.mission:3:2",
        "  |",
        "3 | \trequire phase [90, 90]",
        "  | \t^^^^^^^^^^^^^^^^^^^^^^",
        "  = help: give two different bounds; [0, 360] is always open and [a, b] with a > b wraps through 0",
        "",
      ].join("\n"),
    );
  });

  it("uses colour only when asked", () => {
    expect(renderDiagnostics(diagnostics, source)).not.toContain("\u001b[");
    expect(renderDiagnostics(diagnostics, source, { color: true })).toContain("\u001b[1;31merror[M301]");
  });

  it("never sends the source's control characters to the terminal", () => {
    const text = "mission a { // \u001b[31mFAKE\u0007\n  on ALLOW { execute t } } }\n";
    const rendered = renderDiagnostics(compile(text, { filename: "x\u001b[2J.mission" }).diagnostics, text);
    expect(rendered).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(rendered).toContain("1 | mission a { // \ufffd[31mFAKE\ufffd");
    expect(rendered).toContain("--> x\ufffd[2J.mission:");
  });

  it("shows notes with their own frames", () => {
    const text = "mission a { on ALLOW { execute t } }\nmission a { on ALLOW { execute t } }\n";
    const rendered = renderDiagnostics(compile(text, { filename: "d.mission" }).diagnostics, text);
    expect(rendered).toContain("error[M500]: a mission named `a` is already declared\n --> d.mission:2:9");
    expect(rendered).toContain("note: first declared here\n --> d.mission:1:9");
  });

  it("points at the end of the file for a missing closing brace", () => {
    const text = "mission a { on ALLOW { execute t }";
    const rendered = renderDiagnostics(compile(text, { filename: "e.mission" }).diagnostics, text);
    expect(rendered).toContain("expected `require`, `on` or `}`, found the end of the file\n --> e.mission:1:35");
  });
});

describe("renderDiagnostics on long lines", () => {
  const frameLines = (rendered: string) => rendered.split("\n").filter((l) => /^\d+ \| /.test(l) || /^\s+\| [ \t]*\^/.test(l));

  it("cuts a line longer than 200 characters around the span, marks the cut and keeps the caret under the span", () => {
    const source = `@temporal v4.6.2\nmission m { /* ${"x".repeat(500)} */ require phase [90, 90] /* ${"y".repeat(500)} */ on ALLOW { execute a } }\n`;
    const rendered = renderDiagnostics(compile(source, { filename: "m.mission" }).diagnostics, source);
    const [code, underline] = frameLines(rendered);
    expect(code!.length).toBeLessThan(220);
    expect(code).toMatch(/^2 \| \u2026x+ \*\/ require phase \[90, 90\] \/\* y+\u2026$/);
    expect(underline!.indexOf("^")).toBe(code!.indexOf("require"));
    expect(underline!.trim()).toMatch(new RegExp(`^\\|\\s+\\^{${"require phase [90, 90]".length}}$`));
  });

  it("leaves lines of up to 200 characters whole", () => {
    const source = `@temporal v4.6.2\nmission m { require phase [90, 90] /* ${"y".repeat(120)} */ on ALLOW { execute a } }\n`;
    const rendered = renderDiagnostics(compile(source, { filename: "m.mission" }).diagnostics, source);
    expect(rendered).not.toContain("\u2026");
    expect(rendered).toContain(source.split("\n")[1]);
  });

  it("ends each diagnostic with the explain command when given one", () => {
    const source = "@temporal v4.6.2\nmission m { require phase [90, 90] on ALLOW { execute a } }\n";
    const rendered = renderDiagnostics(compile(source, { filename: "m.mission" }).diagnostics, source, { explainCommand: "temporalc explain" });
    expect(rendered.trimEnd().split("\n").at(-1)).toBe("  = help: temporalc explain M301");
  });
});
