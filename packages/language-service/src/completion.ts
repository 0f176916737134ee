import { LANGUAGE_VERSION_TEXT, SWT_ZONE_CODES, TIME_ZONE_NAMES } from "@temporal/compiler";
import type { IToken } from "chevrotain";
import { CompletionItemKind, type CompletionItem, type CompletionList, type Position, type Range } from "vscode-languageserver-types";
import type { Analysis } from "./analysis.js";
import { zoneLabel } from "./clock.js";
import { isDirectiveToken, isNameToken } from "./tokens.js";

/**
 * Completion from the tokens before the cursor, so it works in half-typed
 * code the parser gave up on: the token just before the cursor (and, for a
 * name, the one before that) and which braces are open decide what can come
 * next, following grammar/mission.ebnf.
 */

type Block = "file" | "mission" | "handler";

/** The first `length` of `tokens`. */
interface TokenPrefix {
  tokens: readonly IToken[];
  length: number;
}

export function completion(analysis: Analysis, position: Position): CompletionList {
  const { document, scanned } = analysis;
  const offset = document.offsetAt(position);
  if (insideComment(analysis, offset)) return { isIncomplete: false, items: [] };
  const typed = typedWord(analysis, offset);
  const replace: Range = { start: document.positionAt(typed?.start ?? offset), end: position };
  const before = tokensBefore(scanned.tokens, typed?.start ?? offset);
  // Object.assign, not an object spread: V8 copies items of the lists' several shapes by spread about 10x slower
  // (0.5-0.7 ms against 0.04-0.07 ms of CPU for the 310 task names of a 2,000-line file).
  const items = candidates(analysis, before, typed?.text).map((item) => Object.assign({}, item, { textEdit: { range: replace, newText: item.insertText ?? item.label } }));
  return { isIncomplete: false, items };
}

function candidates(analysis: Analysis, before: TokenPrefix, typed: string | undefined): readonly CompletionItem[] {
  const previous = before.tokens[before.length - 1];
  const beforePrevious = before.tokens[before.length - 2];
  const type = previous?.tokenType.name;
  // A keyword right after `execute`, `mission` or `@anchor` is a name there (`execute phase`).
  const previousIsName = beforePrevious !== undefined && ["execute", "mission", "AnchorDirective"].includes(beforePrevious.tokenType.name);
  if (!previousIsName) {
    switch (type) {
      case "TemporalDirective":
        return [{ label: LANGUAGE_VERSION_TEXT, kind: CompletionItemKind.Constant, detail: "the language version this compiler speaks" }];
      case "AnchorDirective":
        return ZONE_ITEMS;
      case "mission":
        return [];
      case "require":
        return keywords(["phase", "carbon", "hs_bloch"]);
      case "carbon":
        return operators(["<", "<="]);
      case "hs_bloch":
        return operators([">=", ">"]);
      case "on":
        return [keyword("ALLOW"), keyword("DENY")];
      case "anchor":
        return [keyword("TSAE")];
      case "TSAE":
        return operators(["->"]);
      case "Arrow":
        return [keyword("clockchain")];
      // The anchor's clauses in their fixed order (`signed ZTT` before `quorum`), or the next statement.
      case "clockchain":
        return [SIGNED_ZTT_ITEM, QUORUM_ITEM, ...STATEMENT_ITEMS];
      case "signed":
        return [keyword("ZTT")];
      case "ZTT":
        return [QUORUM_ITEM, ...STATEMENT_ITEMS];
      case "quorum":
        return [];
      case "execute":
        return taskNames(analysis, typed);
    }
  }
  if (previous !== undefined && !endsItem(previous, beforePrevious, previousIsName)) return [];
  switch (enclosingBlock(before)) {
    case "file":
      return [keyword("mission"), ...(missionBefore(before) ? [] : [keyword("@temporal"), keyword("@anchor")])];
    case "mission":
      return [keyword("require"), keyword("on")];
    case "handler":
      return STATEMENT_ITEMS;
  }
}

const STATEMENT_ITEMS: readonly CompletionItem[] = [keyword("execute"), { ...keyword("anchor TSAE -> clockchain"), detail: "issue a signed receipt and anchor it" }];
const SIGNED_ZTT_ITEM: CompletionItem = { ...keyword("signed ZTT"), detail: "also sign the receipt with a key certified for the mission's window only" };
const QUORUM_ITEM: CompletionItem = { ...keyword("quorum"), detail: "wait until this many witnesses have cosigned the receipt's checkpoint" };

/** The tokens that end before `offset`: a prefix of the sorted tokens, found by binary search, not copied. */
function tokensBefore(tokens: readonly IToken[], offset: number): TokenPrefix {
  return { tokens, length: countBefore(tokens, offset, (token) => token.endOffset!) };
}

/** How many of `tokens` (sorted, not overlapping) have `at(token) < offset`, by binary search: requests stay O(log n) in the file's size. */
function countBefore(tokens: readonly IToken[], offset: number, at: (token: IToken) => number): number {
  let low = 0;
  let high = tokens.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (at(tokens[middle]!) < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether the token can end a directive, requirement, statement or block, so a new one may start after it. */
function endsItem(token: IToken, before: IToken | undefined, isName: boolean): boolean {
  const type = token.tokenType.name;
  if (type === "LCurly" || type === "RCurly" || type === "RSquare" || type === "clockchain" || type === "Version") return true;
  if (type === "Number") return before !== undefined && ["Less", "LessEqual", "Greater", "GreaterEqual", "quorum"].includes(before.tokenType.name);
  return isName && before?.tokenType.name !== "mission";
}

/** The block the cursor is in, from the braces before it: a `{` after `ALLOW`/`DENY` opens a handler. */
function enclosingBlock({ tokens, length }: TokenPrefix): Block {
  const stack: Block[] = [];
  for (let i = 0; i < length; i++) {
    const type = tokens[i]!.tokenType.name;
    if (type === "LCurly") {
      const opener = tokens[i - 1]?.tokenType.name;
      stack.push(opener === "ALLOW" || opener === "DENY" ? "handler" : "mission");
    } else if (type === "RCurly") {
      stack.pop();
    }
  }
  return stack[stack.length - 1] ?? "file";
}

/** Directives come before the first mission. */
function missionBefore({ tokens, length }: TokenPrefix): boolean {
  for (let i = 0; i < length; i++) if (tokens[i]!.tokenType.name === "mission") return true;
  return false;
}

/**
 * The SWT zone codes, then the IANA time zones the compiler lists (sorted after them). Built once: completion copies
 * an item before giving it a text edit.
 */
const ZONE_ITEMS: readonly CompletionItem[] = (() => {
  const codes = SWT_ZONE_CODES.map((code, zone) => ({
    label: code,
    kind: CompletionItemKind.EnumMember,
    detail: `SWT zone ${zoneLabel(zone)}`,
    sortText: `0${String(zone).padStart(2, "0")}`,
  }));
  // The checker's list, not the engine's: Node 20 still lists renamed zones (Asia/Calcutta), and completion must offer what M206 accepts as spelt.
  const names = TIME_ZONE_NAMES.map((name) => ({ label: name, kind: CompletionItemKind.EnumMember, detail: "IANA time zone (daylight saving included)", sortText: `1${name}` }));
  return [...codes, ...names];
})();

/** Task names executed elsewhere in the file, not counting the word being typed. */
function taskNames(analysis: Analysis, typed: string | undefined): CompletionItem[] {
  return analysis.model.symbols
    .filter((symbol) => symbol.kind === "task" && !(symbol.name === typed && symbol.references.length === 1))
    .map((symbol) => ({ label: symbol.name, kind: CompletionItemKind.Function, detail: `task, executed ${symbol.references.length} time${symbol.references.length === 1 ? "" : "s"}` }));
}

/** The name or directive the cursor is at the end of, being typed. */
function typedWord(analysis: Analysis, offset: number): { start: number; text: string } | undefined {
  const { tokens } = analysis.scanned;
  // The last token ending before the offset is the only one that can end right at it.
  const token = tokens[countBefore(tokens, offset, (t) => t.endOffset!) - 1];
  if (token !== undefined && token.endOffset! + 1 === offset && (isNameToken(token) || isDirectiveToken(token) || token.tokenType.name === "TimeZoneName"))
    return { start: token.startOffset, text: token.image };
  // A lone `@` is no token yet: the start of a directive.
  if (analysis.text[offset - 1] === "@") return { start: offset - 1, text: "@" };
  return undefined;
}

/** Inside a comment, or at the end of a line comment (typing on in it); an unterminated comment runs to the end of the file. */
function insideComment(analysis: Analysis, offset: number): boolean {
  const { comments, unterminatedComments } = analysis.scanned;
  // Comments do not overlap: only the last one starting before the offset can hold it.
  const comment = comments[countBefore(comments, offset, (c) => c.startOffset) - 1];
  const inComment = comment !== undefined && (offset <= comment.endOffset! || (comment.image.startsWith("//") && offset === comment.endOffset! + 1));
  return inComment || unterminatedComments.some((c) => c.startOffset < offset);
}

function keyword(label: string): CompletionItem {
  return { label, kind: CompletionItemKind.Keyword };
}

function keywords(labels: readonly string[]): CompletionItem[] {
  return labels.map(keyword);
}

function operators(labels: readonly string[]): CompletionItem[] {
  return labels.map((label) => ({ label, kind: CompletionItemKind.Operator }));
}
