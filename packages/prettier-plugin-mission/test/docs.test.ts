import { readFileSync } from "node:fs";
import { parse, renderDiagnostics } from "@temporal/compiler";
import { describe, expect, it } from "vitest";
import { format, REPO_ROOT } from "./helpers.js";

/**
 * docs/format.md shows the format with examples; they are the formatter's
 * real output. A ```mission before block formats to the ```mission after
 * block right after it; a ```mission invalid block is refused, and the
 * ```text block after it is what the Prettier CLI prints for it.
 */

interface Block {
  info: string;
  text: string;
  line: number;
}

function blocks(markdown: string): Block[] {
  const result: Block[] = [];
  let open: { info: string; line: number; lines: string[] } | undefined;
  markdown.split("\n").forEach((line, index) => {
    if (open === undefined) {
      if (line.startsWith("```")) open = { info: line.slice(3).trim(), line: index + 1, lines: [] };
    } else if (line.trim() === "```") {
      result.push({ info: open.info, line: open.line, text: open.lines.map((l) => `${l}\n`).join("") });
      open = undefined;
    } else {
      open.lines.push(line);
    }
  });
  return result;
}

describe("docs/format.md", () => {
  const all = blocks(readFileSync(`${REPO_ROOT}docs/format.md`, "utf8"));

  it("has examples, each before block followed by its after block", () => {
    const befores = all.filter((b) => b.info === "mission before");
    expect(befores.length).toBeGreaterThanOrEqual(5);
    for (const before of befores) expect(all[all.indexOf(before) + 1]?.info, `after the block at line ${before.line}`).toBe("mission after");
    expect(all.filter((b) => b.info.startsWith("mission")).every((b) => ["mission before", "mission after", "mission invalid"].includes(b.info))).toBe(true);
  });

  all.forEach((block, i) => {
    if (block.info === "mission before") {
      it(`the example at line ${block.line} formats as shown`, async () => {
        const after = all[i + 1]!;
        expect(await format(block.text)).toBe(after.text);
        expect(await format(after.text)).toBe(after.text);
      });
    }
    if (block.info === "mission invalid") {
      it(`the syntax error at line ${block.line} is refused as shown`, async () => {
        const filename = "broken.mission";
        await expect(format(block.text, { filepath: filename })).rejects.toThrow(SyntaxError);
        const shown = all[i + 1]!.text.replaceAll(/^\[error\] /gmu, "");
        const rendered = renderDiagnostics(parse(block.text, { filename }).diagnostics, block.text).trimEnd();
        expect(shown.startsWith(`${filename}: SyntaxError: ${rendered}\n`)).toBe(true);
      });
    }
  });
});
