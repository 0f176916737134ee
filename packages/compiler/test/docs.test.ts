import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compile, decodeSource, DIAGNOSTIC_CODES, docsAnchor, hasErrors, renderDiagnostics, type Diagnostic } from "../src/index.js";

/**
 * Keeps the user documentation true to the compiler. The conventions are
 * described at the top of each markdown file:
 *
 * - docs/diagnostics.md: one `## M<nnn>: <title> (<severity>)` section per
 *   code, in code order. A section's first ```mission block must trigger its
 *   code, and the next plain ``` block must be the compiler's rendered output
 *   for it; with ```mission abridged-output, the output block shows only
 *   some of the real output's lines, in order; with ```mission bytes, `\xNN`
 *   in the example stands for the byte NN and the bytes are read with
 *   decodeSource, as temporalc reads a file.
 * - docs/language.md: a ```mission block is a complete file that compiles
 *   without errors; ```mission invalid is an intentional mistake and must
 *   produce an error.
 */

const DOCS = new URL("../../../docs/", import.meta.url);
const EXAMPLE_FILENAME = "example.mission";

interface Block {
  /** The info string after the opening fence, trimmed: "mission", "mission skip-test", "". */
  info: string;
  /** The block's content, each line ending with "\n". */
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
}

interface Heading {
  text: string;
  line: number;
}

interface Markdown {
  blocks: Block[];
  /** Level-2 headings outside code blocks. */
  headings: Heading[];
  /** The anchors GitHub gives the headings of every level. */
  anchors: Set<string>;
  /** The text outside code blocks, where links are. */
  prose: string;
}

function readMarkdown(name: string): Markdown {
  const lines = readFileSync(new URL(name, DOCS), "utf8").split(/\r?\n/);
  const blocks: Block[] = [];
  const headings: Heading[] = [];
  const anchors = new Set<string>();
  const prose: string[] = [];
  let open: { info: string; line: number; content: string[] } | undefined;
  lines.forEach((line, index) => {
    if (open !== undefined) {
      if (/^```\s*$/.test(line)) {
        blocks.push({ info: open.info, line: open.line, text: open.content.map((l) => `${l}\n`).join("") });
        open = undefined;
      } else {
        open.content.push(line);
      }
    } else if (line.startsWith("```")) {
      open = { info: line.slice(3).trim(), line: index + 1, content: [] };
    } else {
      prose.push(line);
      if (line.startsWith("## ")) headings.push({ text: line.trimEnd(), line: index + 1 });
      const heading = /^#{1,6} (.*)$/.exec(line);
      if (heading !== null) anchors.add(githubAnchor(heading[1]!));
    }
  });
  if (open !== undefined) throw new Error(`${name}:${open.line}: code block never closed`);
  return { blocks, headings, anchors, prose: prose.join("\n") };
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function githubAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** `[text](file.md#anchor)` and `[text](#anchor)` links in the prose, as [file, anchor]. */
function anchorLinks(markdown: Markdown, self: string): [file: string, anchor: string][] {
  return [...markdown.prose.matchAll(/\]\(([\w.-]*)#([^)\s]+)\)/g)].map((m) => [m[1] === "" ? self : m[1]!, m[2]!]);
}

/** The words after `mission` in a ```mission info string, or undefined for other blocks. */
function missionMarkers(block: Block): string[] | undefined {
  const [language, ...markers] = block.info.split(/\s+/);
  return language === "mission" ? markers : undefined;
}

/** Rendered output as shown in a markdown file: trailing spaces and the final newline do not count. */
function normalizeOutput(text: string): string {
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n+$/, "");
}

function describeDiagnostics(source: string, filename = EXAMPLE_FILENAME): string {
  const { diagnostics } = compile(source, { filename });
  return diagnostics.length === 0 ? "(no diagnostics)" : renderDiagnostics(diagnostics, source);
}

/** An example's bytes: its UTF-8 text, with each `\xNN` turned into the byte NN. */
function exampleBytes(text: string): Uint8Array {
  return Uint8Array.from(text.split(/(\\x[0-9a-fA-F]{2})/).flatMap((part) => (/^\\x[0-9a-fA-F]{2}$/.test(part) ? [parseInt(part.slice(2), 16)] : [...new TextEncoder().encode(part)])));
}

/** What `temporalc check` reports for an example: the decoding's diagnostics for bytes, else the compiler's. */
function exampleDiagnostics(block: Block, bytes: boolean): { diagnostics: Diagnostic[]; source: string } {
  if (!bytes) return { diagnostics: compile(block.text, { filename: EXAMPLE_FILENAME }).diagnostics, source: block.text };
  const decoded = decodeSource(exampleBytes(block.text), EXAMPLE_FILENAME);
  const diagnostics = decoded.diagnostics.length > 0 ? decoded.diagnostics : compile(decoded.text, { filename: EXAMPLE_FILENAME }).diagnostics;
  return { diagnostics, source: decoded.text };
}

const CODES = Object.keys(DIAGNOSTIC_CODES) as (keyof typeof DIAGNOSTIC_CODES)[];
const CODE_HEADING = /^## (M\d{3}): (.+) \((error|warning|info)\)$/;

describe("docs/diagnostics.md", () => {
  const markdown = readMarkdown("diagnostics.md");
  const codeHeadings = markdown.headings.filter((h) => /^##\s+M\d/.test(h.text));

  /** Each code's section: its heading and the blocks up to the next level-2 heading. */
  function section(code: string): { heading: Heading; blocks: Block[] } | undefined {
    const index = markdown.headings.findIndex((h) => CODE_HEADING.exec(h.text)?.[1] === code);
    if (index < 0) return undefined;
    const heading = markdown.headings[index]!;
    const end = markdown.headings[index + 1]?.line ?? Number.POSITIVE_INFINITY;
    return { heading, blocks: markdown.blocks.filter((b) => b.line > heading.line && b.line < end) };
  }

  it("writes every code heading as `## M<nnn>: <title> (<severity>)` for a code that exists", () => {
    const malformed = codeHeadings.filter((h) => !CODE_HEADING.test(h.text)).map((h) => `line ${h.line}: ${h.text}`);
    expect(malformed).toEqual([]);
    const unknown = codeHeadings.map((h) => CODE_HEADING.exec(h.text)?.[1]).filter((code): code is string => code !== undefined && !(code in DIAGNOSTIC_CODES));
    expect(unknown).toEqual([]);
  });

  it("has exactly one section per code, in code order, with the code's title and severity", () => {
    const expected = Object.entries(DIAGNOSTIC_CODES).map(([code, { title, severity }]) => `## ${code}: ${title} (${severity})`);
    expect(codeHeadings.map((h) => h.text)).toEqual(expected);
  });

  for (const code of CODES) {
    const found = section(code);
    const example = found?.blocks.find((b) => missionMarkers(b) !== undefined);
    const markers = example === undefined ? [] : missionMarkers(example)!;
    const abridged = markers.includes("abridged-output");
    const bytes = markers.includes("bytes");

    describe(code, () => {
      it("has a ```mission example with known markers", () => {
        expect(found, `no section for ${code}`).toBeDefined();
        expect(example, `the ${code} section has no \`\`\`mission example`).toBeDefined();
        expect(
          markers.filter((m) => m !== "abridged-output" && m !== "bytes"),
          `unknown markers on line ${example?.line}`,
        ).toEqual([]);
      });

      it(`the example triggers ${code}`, () => {
        const { diagnostics, source } = exampleDiagnostics(example!, bytes);
        const codes = diagnostics.map((d) => d.code);
        expect(codes, `diagnostics.md:${example!.line}\n${renderDiagnostics(diagnostics, source)}`).toContain(code);
      });

      it("shows the example's real output", () => {
        const output = found!.blocks.find((b) => b.line > example!.line && b.info === "");
        expect(output, `no plain \`\`\` output block after the example on line ${example!.line}`).toBeDefined();
        const { diagnostics, source } = exampleDiagnostics(example!, bytes);
        const rendered = normalizeOutput(renderDiagnostics(diagnostics, source));
        const shown = normalizeOutput(output!.text);
        if (!abridged) {
          expect(shown, `diagnostics.md:${output!.line}`).toBe(rendered);
          return;
        }
        // Every line shown, in order, among the real output's lines.
        const real = rendered.split("\n");
        let from = 0;
        for (const line of shown.split("\n")) {
          const at = real.indexOf(line, from);
          expect(at, `diagnostics.md:${output!.line}: "${line}" is not in the real output (after line ${from})`).toBeGreaterThanOrEqual(0);
          from = at + 1;
        }
      });
    });
  }
});

describe("links between the docs", () => {
  const files = { "language.md": readMarkdown("language.md"), "diagnostics.md": readMarkdown("diagnostics.md") };
  /** Every page of docs/ the two may link to; those pages' own links are not checked here. */
  const targets: Record<string, Markdown> = Object.fromEntries(
    readdirSync(DOCS)
      .filter((name) => name.endsWith(".md"))
      .map((name) => [name, readMarkdown(name)]),
  );

  it("include every code's section at the anchor SARIF's helpUri names", () => {
    for (const code of CODES) expect(files["diagnostics.md"].anchors.has(docsAnchor(code)), code).toBe(true);
  });

  it("land on headings that exist", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const [name, markdown] of Object.entries(files)) {
      for (const [file, anchor] of anchorLinks(markdown, name)) {
        checked++;
        const target = targets[file];
        if (target === undefined || !target.anchors.has(anchor)) broken.push(`${name}: ${file}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});

describe("docs/language.md", () => {
  const markdown = readMarkdown("language.md");
  const examples = markdown.blocks.filter((b) => missionMarkers(b) !== undefined);

  it("has ```mission examples, marked only `invalid` when marked at all", () => {
    expect(examples.length).toBeGreaterThan(5);
    const unknown = examples.filter((b) => missionMarkers(b)!.some((m) => m !== "invalid")).map((b) => `line ${b.line}: ${b.info}`);
    expect(unknown).toEqual([]);
  });

  for (const example of examples) {
    const invalid = missionMarkers(example)!.includes("invalid");
    it(`line ${example.line}: ${invalid ? "reports an error, as intended" : "compiles without errors"}`, () => {
      const { diagnostics } = compile(example.text, { filename: EXAMPLE_FILENAME });
      expect(hasErrors(diagnostics), `language.md:${example.line}\n${describeDiagnostics(example.text)}`).toBe(invalid);
    });
  }
});

describe("README.md and docs/compiling.md", () => {
  it("README's mission examples compile without errors", () => {
    const examples = readMarkdown("../README.md").blocks.filter((b) => b.info === "mission");
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      expect(hasErrors(compile(example.text).diagnostics), `README.md:${example.line}\n${describeDiagnostics(example.text)}`).toBe(false);
    }
  });

  it("compiling.md shows exactly the module the compiler generates for the nightly-backup example", () => {
    const shown = readMarkdown("compiling.md").blocks.find((b) => b.info === "js" && b.text.startsWith("// Generated by temporalc"));
    const source = readFileSync(new URL("../examples/nightly-backup.mission", DOCS), "utf8");
    expect(shown?.text).toBe(compile(source, { filename: "examples/nightly-backup.mission" }).code);
  });
});
