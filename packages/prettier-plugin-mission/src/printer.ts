import type { AstPath, Doc, Printer } from "prettier";
import { builders } from "prettier/doc";
import type { AttachedComment, Container, FileNode, HandlerNode, ListItem, MissionNode, MissionNodeAny } from "./ast.js";
import { isComment, locEnd, locStart } from "./ast.js";
import { attachComment, CLOSE, gapMarker, OPEN } from "./comments.js";
import { lineBreaksBetween } from "./layout.js";

const { align, hardline, join, literalline } = builders;

/**
 * The canonical layout (docs/format.md). Nothing here depends on the line
 * width: the language has no construct worth wrapping, so every item is one
 * line, and the indent is always two spaces, whatever `tabWidth` and
 * `useTabs` say, so that a file has one format everywhere.
 */
const INDENT = "  ";

type Print = (selector?: string | number | Array<string | number> | AstPath) => Doc;

/**
 * How the two tokens around a gap are spaced: `space` is one space
 * (`require phase`), `open` and `close` none (`[45`, `45,`, `90]`). Comments in
 * an `open` gap stick to the token after them (`[/* start *\/ 45`), those in a
 * `close` gap to the token before them (`90 /* end *\/]`).
 */
type Gap = "space" | "open" | "close";

function printNode(path: AstPath<MissionNodeAny>, options: { originalText: string }, print: Print): Doc {
  const node = path.node;
  const text = options.originalText;
  switch (node.kind) {
    case "MissionFile":
      return printFile(path as AstPath<FileNode>, text, print);
    case "VersionDirective":
      return sequence(node, ["@temporal", node.version?.raw ?? ""], ["space"]);
    case "AnchorDirective":
      return sequence(node, ["@anchor", print("code")], ["space"]);
    case "Mission":
      return [sequence(node, ["mission", print("name"), "{"], ["space", "space"]), printBlock(path as AstPath<MissionNode>, "items", text, print)];
    case "PhaseRequirement":
      return sequence(node, ["require", "phase", "[", print("start"), ",", print("end"), "]"], ["space", "space", "open", "close", "space", "close"]);
    case "CarbonRequirement":
      return sequence(node, ["require", "carbon", node.operator, print("threshold")], ["space", "space", "space"]);
    case "HsBlochRequirement":
      return sequence(node, ["require", "hs_bloch", node.operator, print("threshold")], ["space", "space", "space"]);
    case "Handler":
      return [sequence(node, ["on", node.verdict, "{"], ["space", "space"]), printBlock(path as AstPath<HandlerNode>, "body", text, print)];
    case "ExecuteStatement":
      return sequence(node, ["execute", print("task")], ["space"]);
    case "AnchorStatement": {
      // Clauses as written, in their order: a repeat or the wrong order is the checker's to report (M512, M513), not the formatter's to change.
      const parts: Doc[] = ["anchor", "TSAE", "->", "clockchain"];
      for (const clause of node.clauses) {
        if (clause.kind === "SignedZtt") parts.push("signed", "ZTT");
        else if (clause.value !== null) parts.push("quorum", clause.value === node.quorum ? print("quorum") : clause.value.raw);
      }
      return sequence(
        node,
        parts,
        parts.slice(1).map(() => "space"),
      );
    }
    case "Identifier":
      return node.name;
    case "NumberLiteral":
    case "ClockTime":
      // As written: the formatter never turns a clock time into degrees or back.
      return node.raw;
    case "LineComment":
    case "BlockComment":
      return printComment(node);
  }
}

/** A comment as written; a line comment loses its trailing whitespace, a block comment keeps every character. */
function printComment(comment: AttachedComment): Doc {
  comment.printed = true;
  if (comment.kind === "LineComment") return comment.text.replace(/\s+$/u, "");
  // literalline: the comment's own lines keep their own indentation.
  return join(literalline, comment.text.split(/\r\n?|\n/u));
}

/** Tokens with the canonical spacing, and the comments written between them in their gaps. */
function sequence(node: { comments?: AttachedComment[] }, parts: Doc[], gaps: Gap[]): Doc {
  const rest: Doc[] = [];
  for (let k = 1; k < parts.length; k++) {
    const comments = (node.comments ?? []).filter((c) => c.marker === gapMarker(k));
    rest.push(printGap(comments, gaps[k - 1]!), parts[k]!);
  }
  // A line comment ends the line; the node goes on, one indent further in.
  return [parts[0]!, align(INDENT, rest)];
}

function printGap(comments: AttachedComment[], gap: Gap): Doc {
  if (comments.length === 0) return gap === "space" ? " " : "";
  const out: Doc[] = [];
  comments.forEach((comment, i) => {
    const previous = comments[i - 1];
    if (previous === undefined) out.push(gap === "open" && comment.kind === "BlockComment" ? "" : " ");
    else out.push(previous.kind === "LineComment" ? hardline : " ");
    out.push(printComment(comment));
  });
  const last = comments.at(-1)!;
  out.push(last.kind === "LineComment" ? hardline : gap === "close" ? "" : " ");
  return out;
}

/** An item of a list, or a comment in it, with the role the comment was attached in. */
type Element = { comment: AttachedComment; role: "open" | "leading" | "trailing" | "close" } | { item: ListItem; doc: Doc };

function elements(container: Container, items: Array<{ item: ListItem; doc: Doc }>): Element[] {
  const dangling = container.comments ?? [];
  const result: Element[] = dangling.filter((c) => c.marker === OPEN).map((comment) => ({ comment, role: "open" as const }));
  for (const { item, doc } of items) {
    for (const comment of item.comments ?? []) if (comment.leading) result.push({ comment, role: "leading" });
    result.push({ item, doc });
    for (const comment of item.comments ?? []) if (comment.trailing) result.push({ comment, role: "trailing" });
  }
  for (const comment of dangling) if (comment.marker === CLOSE) result.push({ comment, role: "close" });
  return result;
}

const startOf = (e: Element) => locStart("item" in e ? e.item : e.comment);
const endOf = (e: Element) => locEnd("item" in e ? e.item : e.comment);
const docOf = (e: Element) => ("item" in e ? e.doc : printComment(e.comment));

/**
 * Whether an element goes on the line of the one before it, when no line
 * break separates them in the source: comments do, and an item does after a
 * block comment that leads it (`/* why *\/ execute a`), but never after
 * another item (`execute a execute b` is two lines).
 */
function staysOnLine(previous: Element, element: Element, lineBreaks: number, lineHasItem: boolean): boolean {
  if (lineBreaks > 0) return false;
  if ("comment" in previous && previous.comment.kind === "LineComment") return false;
  if ("comment" in element) return true;
  return "comment" in previous && !lineHasItem;
}

/** The statements or items of a mission or handler, after its `{`, and the closing `}`. */
function printBlock(path: AstPath<MissionNode> | AstPath<HandlerNode>, key: "items" | "body", text: string, print: Print): Doc {
  const container = path.node;
  const nodes: ListItem[] = container.kind === "Mission" ? container.items : container.body;
  const docs: Doc[] = (path as AstPath).map(print, key);
  const list = elements(
    container,
    nodes.map((item, i) => ({ item, doc: docs[i]! })),
  );
  if (list.length === 0) return "}";
  if (list.every((e) => "comment" in e && e.role === "open" && e.comment.kind === "BlockComment")) {
    return [" ", join(" ", list.map(docOf)), " }"];
  }
  const inner: Doc[] = [];
  let lineHasItem = true; // the `{`
  list.forEach((element, i) => {
    const previous = list[i - 1];
    if (previous === undefined) {
      if ("comment" in element && element.role === "open") inner.push(" ");
      else {
        inner.push(hardline);
        lineHasItem = false;
      }
    } else {
      const lineBreaks = lineBreaksBetween(text, endOf(previous), startOf(element));
      if (staysOnLine(previous, element, lineBreaks, lineHasItem)) inner.push(" ");
      else {
        inner.push(lineBreaks >= 2 ? [hardline, hardline] : hardline);
        lineHasItem = false;
      }
    }
    inner.push(docOf(element));
    if ("item" in element) lineHasItem = true;
  });
  return [align(INDENT, inner), hardline, "}"];
}

/**
 * The top level: directives and missions in the order written. Directives
 * that follow each other are one block, a line each; one blank line
 * separates every other pair of neighbours. Blank lines around comments are
 * kept (at most one), except inside the directive block.
 */
function printFile(path: AstPath<FileNode>, text: string, print: Print): Doc {
  const file = path.node;
  const directives = path.map(print, "directives");
  const missions = path.map(print, "missions");
  const items = [...file.directives.map((item, i) => ({ item: item, doc: directives[i]! })), ...file.missions.map((item, i) => ({ item: item, doc: missions[i]! }))].sort(
    (a, b) => locStart(a.item) - locStart(b.item),
  );
  const list = elements(file, items);
  if (list.length === 0) return "";

  // The next item at or after each element, to know what a line break separates.
  const nextItem: Array<ListItem | undefined> = [];
  for (let i = list.length - 1, next: ListItem | undefined; i >= 0; i--) {
    const element = list[i]!;
    if ("item" in element) next = element.item;
    nextItem[i] = next;
  }
  const isDirective = (item: ListItem) => item.kind === "VersionDirective" || item.kind === "AnchorDirective";

  const out: Doc[] = [];
  let lineHasItem = false;
  let lastItem: ListItem | undefined;
  let brokeSinceItem = true;
  list.forEach((element, i) => {
    const previous = list[i - 1];
    if (previous !== undefined) {
      const lineBreaks = lineBreaksBetween(text, endOf(previous), startOf(element));
      if (staysOnLine(previous, element, lineBreaks, lineHasItem)) out.push(" ");
      else {
        let blank = lineBreaks >= 2;
        const next = nextItem[i];
        if (lastItem !== undefined && next !== undefined) {
          if (isDirective(lastItem) && isDirective(next)) blank = false;
          else if (!brokeSinceItem) blank = true;
        }
        out.push(blank ? [hardline, hardline] : hardline);
        brokeSinceItem = true;
        lineHasItem = false;
      }
    }
    out.push(docOf(element));
    if ("item" in element) {
      lineHasItem = true;
      lastItem = element.item;
      brokeSinceItem = false;
    }
  });
  out.push(hardline);
  return out;
}

function isPrettierIgnore(comment: AttachedComment): boolean {
  const body = comment.kind === "LineComment" ? comment.text.slice(2) : comment.text.slice(2, -2);
  return body.trim() === "prettier-ignore";
}

const VISITOR_KEYS: Record<string, string[]> = {
  MissionFile: ["directives", "missions"],
  AnchorDirective: ["code"],
  Mission: ["name", "items"],
  PhaseRequirement: ["start", "end"],
  CarbonRequirement: ["threshold"],
  HsBlochRequirement: ["threshold"],
  Handler: ["body"],
  ExecuteStatement: ["task"],
  AnchorStatement: ["quorum"],
};

export const missionPrinter: Printer<MissionNodeAny> = {
  print: printNode,
  printComment: (path) => printComment(path.node as AttachedComment),
  isBlockComment: (node) => node.kind === "BlockComment",
  canAttachComment: (node) => typeof node.kind === "string" && !isComment(node),
  getVisitorKeys: (node) => VISITOR_KEYS[node.kind] ?? [],
  handleComments: {
    ownLine: (comment: AttachedComment, text, _options, ast) => attachComment(comment, text, ast as FileNode),
    endOfLine: (comment: AttachedComment, text, _options, ast) => attachComment(comment, text, ast as FileNode),
    remaining: (comment: AttachedComment, text, _options, ast) => attachComment(comment, text, ast as FileNode),
  },
  // Leading and trailing comments are printed with the list they are in, dangling ones in their gap.
  willPrintOwnComments: () => true,
  // `// prettier-ignore` (or `/* prettier-ignore */`) leading an item keeps its text as written.
  hasPrettierIgnore: (path) => {
    const comments = (node: unknown) => (node as { comments?: AttachedComment[] } | null)?.comments ?? [];
    if (comments(path.node).some((c) => c.leading === true && isPrettierIgnore(c))) return true;
    // After a `{` it stays on the brace's line, dangling `open`, yet it precedes the block's first item as much as a leading comment does.
    const firstInBlock = path.isFirst && (path.key === "items" || path.key === "body");
    return firstInBlock && comments(path.parent).some((c) => c.marker === OPEN && isPrettierIgnore(c));
  },
  // For `prettier --debug-check`: the trees before and after formatting differ only in positions and comments.
  massageAstNode: Object.assign(() => undefined, { ignoredProperties: new Set(["range", "comments", "filename"]) }),
};
