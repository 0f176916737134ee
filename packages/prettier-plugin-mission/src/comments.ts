import type { AttachedComment, Container, FileNode, ListItem } from "./ast.js";
import { locEnd, locStart } from "./ast.js";
import { enclosingNode, firstStartingAtOrAfter, gapIndex, isWhitespace, regionOf, spansOf, type Region } from "./layout.js";

/**
 * Comment attachment. Prettier finds each comment's enclosing node and calls
 * `handleComments`; every comment is placed here, by the same rules whatever
 * Prettier's guess of ownLine, endOfLine or remaining:
 *
 * - Inside a directive, a requirement, a statement, or the head of a mission
 *   or handler (before its `{`): a dangling comment of that node, marked
 *   `gap<k>`, printed in the same gap between the same two tokens.
 * - In a list (the file's top level, a mission's items, a handler's
 *   statements), a comment is part of a run of comments with no line break
 *   between them. A run that starts on the line of an item's end is
 *   trailing that item (`require phase [300, 30] // wraps`); a run that starts
 *   on the line of the opening `{` is dangling `open` on the container
 *   (`on DENY { /* nothing *\/ }`; a `prettier-ignore` there still ignores the
 *   first item, see the printer's hasPrettierIgnore); any other comment is
 *   leading the next item, or, after the last item, dangling `close` on the
 *   container.
 */

export const OPEN = "open";
export const CLOSE = "close";
export const gapMarker = (k: number): string => `gap${k}`;

const fileComments = new WeakMap<FileNode, readonly AttachedComment[]>();

/** The parser registers the file's comments here: Prettier takes `ast.comments` away before attaching them. */
export function registerComments(file: FileNode, comments: readonly AttachedComment[]): void {
  fileComments.set(file, comments);
}

export function attachComment(comment: AttachedComment, text: string, file: FileNode): true {
  const start = locStart(comment);
  const node = enclosingNode(file, start, locEnd(comment));
  if (node.kind !== "MissionFile") {
    const spans = spansOf(node, text);
    const k = gapIndex(spans, start);
    const hasList = node.kind === "Mission" || node.kind === "Handler";
    if (!hasList || k < spans.length) {
      if (k < 1 || k >= spans.length) throw new Error(`prettier-plugin-mission: comment at offset ${start} is not between two tokens of its ${node.kind}`);
      addDangling(node, comment, gapMarker(k));
      return true;
    }
    attachInList(node, comment, text, file);
    return true;
  }
  attachInList(file, comment, text, file);
  return true;
}

function attachInList(container: Container, comment: AttachedComment, text: string, file: FileNode): void {
  const region = regionOf(container, text);
  const head = runHead(comment, container, region, text, file);
  if (head === OPEN) {
    addDangling(container, comment, OPEN);
  } else if (head !== "line") {
    addTrailing(head, comment);
  } else {
    const next = region.items[firstStartingAtOrAfter(region.items, locEnd(comment))];
    if (next === undefined) addDangling(container, comment, CLOSE);
    else addLeading(next, comment);
  }
}

/**
 * Follows the run of comments a comment belongs to back to its start: the item
 * or opening brace on whose line the run starts, or "line" when the run starts
 * a line (or the file).
 */
function runHead(comment: AttachedComment, container: Container, region: Region, text: string, file: FileNode): ListItem | typeof OPEN | "line" {
  const { commentsByEnd, itemsByEnd } = indexes(container, region, file);
  let start = locStart(comment);
  for (;;) {
    let p = start;
    while (p > region.start && isWhitespace(text[p - 1]!)) {
      if (text[p - 1] === "\n" || text[p - 1] === "\r") return "line";
      p--;
    }
    if (p === region.start) return container.kind === "MissionFile" ? "line" : OPEN;
    const previousComment = commentsByEnd.get(p);
    if (previousComment !== undefined) {
      start = locStart(previousComment);
      continue;
    }
    const item = itemsByEnd.get(p);
    if (item !== undefined) return item;
    throw new Error(`prettier-plugin-mission: no token ends at offset ${p}, before the comment at ${locStart(comment)}`);
  }
}

const commentIndexes = new WeakMap<FileNode, Map<number, AttachedComment>>();
const itemIndexes = new WeakMap<Container, Map<number, ListItem>>();

function indexes(container: Container, region: Region, file: FileNode) {
  let commentsByEnd = commentIndexes.get(file);
  if (commentsByEnd === undefined) {
    commentsByEnd = new Map((fileComments.get(file) ?? []).map((c) => [locEnd(c), c]));
    commentIndexes.set(file, commentsByEnd);
  }
  let itemsByEnd = itemIndexes.get(container);
  if (itemsByEnd === undefined) {
    itemsByEnd = new Map(region.items.map((item) => [locEnd(item), item]));
    itemIndexes.set(container, itemsByEnd);
  }
  return { commentsByEnd, itemsByEnd };
}

// The same bookkeeping as Prettier's util.addLeadingComment and friends, without
// importing Prettier's main module into the plugin.

function add(node: { comments?: AttachedComment[] }, comment: AttachedComment): void {
  (node.comments ??= []).push(comment);
  comment.printed = false;
}

function addLeading(node: { comments?: AttachedComment[] }, comment: AttachedComment): void {
  comment.leading = true;
  comment.trailing = false;
  add(node, comment);
}

function addTrailing(node: { comments?: AttachedComment[] }, comment: AttachedComment): void {
  comment.leading = false;
  comment.trailing = true;
  add(node, comment);
}

function addDangling(node: { comments?: AttachedComment[] }, comment: AttachedComment, marker: string): void {
  comment.leading = false;
  comment.trailing = false;
  comment.marker = marker;
  add(node, comment);
}
