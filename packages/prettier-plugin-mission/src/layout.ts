import type { Container, DirectiveNode, FileNode, ItemNode, ListItem, MissionNode, StatementNode } from "./ast.js";
import { locEnd, locStart } from "./ast.js";

/**
 * Where the tokens of a node are in the source text.
 *
 * The AST has nodes for names and numbers but not for keywords and
 * punctuation (`require`, `[`, `,`, `->`, `{`). To put a comment back in the
 * gap it was written in (`require phase [/* start *\/ 45, 90]`), the plugin
 * finds those tokens again: it walks the node's text, skipping whitespace and
 * comments, expecting exactly the tokens the grammar says the node has. The
 * file parsed without syntax errors, so the walk cannot fail; if it does,
 * that is a bug and it throws.
 */

export interface Span {
  start: number;
  end: number;
}

/** Whitespace as the mission grammar defines it; the same set as JavaScript's `\s`. */
export function isWhitespace(char: string): boolean {
  return /\s/.test(char);
}

/** Skips whitespace and comments from `pos`; returns the offset of the next token (or the end). */
export function skipTrivia(text: string, pos: number): number {
  for (;;) {
    while (pos < text.length && isWhitespace(text[pos]!)) pos++;
    if (text.startsWith("//", pos)) {
      while (pos < text.length && text[pos] !== "\n" && text[pos] !== "\r") pos++;
    } else if (text.startsWith("/*", pos)) {
      const close = text.indexOf("*/", pos + 2);
      if (close < 0) throw new Error(`prettier-plugin-mission: unterminated comment at offset ${pos}`);
      pos = close + 2;
    } else {
      return pos;
    }
  }
}

class TokenWalk {
  readonly spans: Span[] = [];
  #pos: number;

  constructor(
    private readonly text: string,
    start: number,
  ) {
    this.#pos = start;
  }

  token(image: string): this {
    const start = skipTrivia(this.text, this.#pos);
    if (!this.text.startsWith(image, start)) {
      throw new Error(`prettier-plugin-mission: expected \`${image}\` at offset ${start}, found ${JSON.stringify(this.text.slice(start, start + 20))}`);
    }
    this.spans.push({ start, end: start + image.length });
    this.#pos = start + image.length;
    return this;
  }

  node(node: { range: { start: { offset: number }; end: { offset: number } } }): this {
    const start = skipTrivia(this.text, this.#pos);
    if (start !== locStart(node)) throw new Error(`prettier-plugin-mission: expected a node at offset ${start}, it starts at ${locStart(node)}`);
    this.spans.push({ start, end: locEnd(node) });
    this.#pos = locEnd(node);
    return this;
  }
}

export type SpannedNode = DirectiveNode | MissionNode | ItemNode | StatementNode;

const spanCache = new WeakMap<object, Span[]>();

/**
 * The node's tokens and child nodes, in order: everything but the list
 * between braces and the closing brace. For a mission that is `mission`, the
 * name and `{`; for a window, `require phase [ start , end ]`. Gap k of a node
 * is the space between its spans k-1 and k.
 */
export function spansOf(node: SpannedNode, text: string): Span[] {
  let spans = spanCache.get(node);
  if (spans === undefined) {
    spans = walk(node, text).spans;
    spanCache.set(node, spans);
  }
  return spans;
}

function walk(node: SpannedNode, text: string): TokenWalk {
  const w = new TokenWalk(text, locStart(node));
  switch (node.kind) {
    case "VersionDirective":
      if (node.version === null) throw new Error("prettier-plugin-mission: a version directive without a version");
      return w.token("@temporal").token(node.version.raw);
    case "AnchorDirective":
      if (node.code === null) throw new Error("prettier-plugin-mission: an anchor directive without a zone");
      return w.token("@anchor").node(node.code);
    case "Mission":
      return w.token("mission").node(node.name).token("{");
    case "PhaseRequirement":
      return w.token("require").token("phase").token("[").node(node.start).token(",").node(node.end).token("]");
    case "CarbonRequirement":
      return w.token("require").token("carbon").token(node.operator).node(node.threshold);
    case "HsBlochRequirement":
      return w.token("require").token("hs_bloch").token(node.operator).node(node.threshold);
    case "Handler":
      return w.token("on").token(node.verdict).token("{");
    case "ExecuteStatement":
      return w.token("execute").node(node.task);
    case "AnchorStatement": {
      const anchor = w.token("anchor").token("TSAE").token("->").token("clockchain");
      for (const clause of node.clauses) {
        if (clause.kind === "SignedZtt") anchor.token("signed").token("ZTT");
        else if (clause.value !== null) anchor.token("quorum").node(clause.value);
      }
      return anchor;
    }
  }
}

/** The gap an offset is in: how many of the spans end at or before it. */
export function gapIndex(spans: readonly Span[], offset: number): number {
  let k = 0;
  while (k < spans.length && spans[k]!.end <= offset) k++;
  return k;
}

/** A container's list: its items in source order, and the text they are in. */
export interface Region {
  items: ListItem[];
  /** Just past the `{` (0 for the file). */
  start: number;
}

const regionCache = new WeakMap<object, Region>();

export function regionOf(container: Container, text: string): Region {
  let region = regionCache.get(container);
  if (region === undefined) {
    if (container.kind === "MissionFile") {
      const items: ListItem[] = [...container.directives, ...container.missions].sort((a, b) => locStart(a) - locStart(b));
      region = { items, start: 0 };
    } else {
      const open = spansOf(container, text).at(-1)!;
      const items = container.kind === "Mission" ? container.items : container.body;
      region = { items, start: open.end };
    }
    regionCache.set(container, region);
  }
  return region;
}

/** The innermost node whose range holds [start, end): the file, a directive, mission, item or statement. */
export function enclosingNode(file: FileNode, start: number, end: number): FileNode | SpannedNode {
  const directive = containing(file.directives, start, end);
  if (directive !== undefined) return directive;
  const mission = containing(file.missions, start, end);
  if (mission === undefined) return file;
  const item = containing(mission.items, start, end);
  if (item === undefined) return mission;
  if (item.kind !== "Handler") return item;
  return containing(item.body, start, end) ?? item;
}

type Ranged = { range: { start: { offset: number }; end: { offset: number } } };

/** The node of a list in source order whose range holds [start, end). */
function containing<T extends Ranged>(nodes: readonly T[], start: number, end: number): T | undefined {
  const candidate = nodes[firstStartingAtOrAfter(nodes, start + 1) - 1];
  return candidate !== undefined && locStart(candidate) <= start && end <= locEnd(candidate) ? candidate : undefined;
}

/** The index of the first node of a list in source order that starts at or after `offset` (the length if none does). */
export function firstStartingAtOrAfter(nodes: readonly Ranged[], offset: number): number {
  let low = 0;
  let high = nodes.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (locStart(nodes[middle]!) < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * How many line breaks `text` has between two offsets: `\n`, `\r\n` or `\r`
 * (Prettier has already turned them all into `\n`).
 */
export function lineBreaksBetween(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) {
    if (text[i] === "\n" || (text[i] === "\r" && text[i + 1] !== "\n")) count++;
  }
  return count;
}
