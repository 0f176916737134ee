/**
 * The mission language's abstract syntax tree: plain, serialisable data.
 * Every node carries the source range it was parsed from; lines and columns
 * are 1-based, columns count UTF-16 code units, offsets are 0-based.
 */

export interface Position {
  line: number;
  column: number;
  offset: number;
}

export interface SourceRange {
  start: Position;
  end: Position;
}

export interface MissionFile {
  kind: "MissionFile";
  filename: string;
  directives: Directive[];
  missions: Mission[];
  comments: Comment[];
  range: SourceRange;
}

export type Directive = VersionDirective | AnchorDirective;

/** `@temporal v4.6.2`; `version` is null when a syntax error was reported in its place. */
export interface VersionDirective {
  kind: "VersionDirective";
  version: LanguageVersion | null;
  range: SourceRange;
}

/** `v4.6.2`; minor and patch are null when not written. */
export interface LanguageVersion {
  raw: string;
  major: number;
  minor: number | null;
  patch: number | null;
}

/**
 * `@anchor Z3` or `@anchor Europe/Paris`. `code` is null when a syntax error
 * was reported in its place. A code of the form `Z<digits>` (or `z<digits>`) names an SWT
 * zone: `zone` is its number, or null when it is not one of Z0..Z11. Any
 * other code names an IANA time zone: `timeZone` is the name as written
 * (the checker says whether it is known), and `zone` is null.
 */
export interface AnchorDirective {
  kind: "AnchorDirective";
  code: Identifier | null;
  zone: number | null;
  timeZone: string | null;
  range: SourceRange;
}

export interface Mission {
  kind: "Mission";
  name: Identifier;
  items: MissionItem[];
  range: SourceRange;
}

export type MissionItem = Requirement | Handler;

export type Requirement = PhaseRequirement | CarbonRequirement | HsBlochRequirement;

/** `require phase [start, end]`, in degrees or clock times; start > end wraps through 0. */
export interface PhaseRequirement {
  kind: "PhaseRequirement";
  start: PhaseBound;
  end: PhaseBound;
  range: SourceRange;
}

/** A window bound: degrees, or a clock time in the anchored zone (both carry `value` in degrees and `raw`). */
export type PhaseBound = NumberLiteral | ClockTimeLiteral;

/** `require carbon < N` or `<= N`, grid intensity in gCO2eq/kWh. */
export interface CarbonRequirement {
  kind: "CarbonRequirement";
  operator: "<" | "<=";
  threshold: NumberLiteral;
  range: SourceRange;
}

/** `require hs_bloch >= Q` or `> Q`, an HS-Bloch quality score in 0..1. */
export interface HsBlochRequirement {
  kind: "HsBlochRequirement";
  operator: ">=" | ">";
  threshold: NumberLiteral;
  range: SourceRange;
}

export type Verdict = "ALLOW" | "DENY";

/** `on ALLOW { ... }` or `on DENY { ... }`. */
export interface Handler {
  kind: "Handler";
  verdict: Verdict;
  body: Statement[];
  range: SourceRange;
}

export type Statement = ExecuteStatement | AnchorStatement;

export interface ExecuteStatement {
  kind: "ExecuteStatement";
  task: Identifier;
  range: SourceRange;
}

/**
 * `anchor TSAE -> clockchain [signed ZTT] [quorum <n>]`: issue a receipt and
 * anchor it in the ledger. With `signed ZTT`, the receipt is also signed by
 * a key certified for the mission's phase window only (docs/ztt.md); with a
 * quorum, the run waits until the receipt is in a checkpoint that at least n
 * witnesses have cosigned.
 */
export interface AnchorStatement {
  kind: "AnchorStatement";
  /** The number after the first `quorum`, as written; null without a quorum. */
  quorum: NumberLiteral | null;
  /** The first `signed ZTT`; null without one. */
  signedZtt: SignedZttClause | null;
  /** Every clause after `clockchain` in source order, repeats included (the checker reports repeats and order, M512, M513). */
  clauses: AnchorClause[];
  range: SourceRange;
}

/** A clause of an anchor statement: `signed ZTT`, or `quorum <n>` (value null when the number is missing). */
export type AnchorClause = SignedZttClause | QuorumClause;

export interface SignedZttClause {
  kind: "SignedZtt";
  range: SourceRange;
}

export interface QuorumClause {
  kind: "Quorum";
  value: NumberLiteral | null;
  range: SourceRange;
}

export interface Identifier {
  kind: "Identifier";
  name: string;
  range: SourceRange;
}

/** A decimal number; `raw` keeps the text as written, for printing. */
export interface NumberLiteral {
  kind: "NumberLiteral";
  value: number;
  raw: string;
  range: SourceRange;
}

/**
 * `20:00` or `20:00:30`, a time of day in the anchored zone. `value` is the
 * same point in degrees (15 per hour), or NaN when the text is not a valid
 * clock time (two-digit fields, hours 00..24, minutes and seconds 00..59,
 * 24 only as 24:00 or 24:00:00); the checker reports those (M304).
 */
export interface ClockTimeLiteral {
  kind: "ClockTime";
  value: number;
  raw: string;
  range: SourceRange;
}

export interface Comment {
  kind: "LineComment" | "BlockComment";
  /** The whole comment including its delimiters. */
  text: string;
  range: SourceRange;
}

export type Node = MissionFile | Directive | Mission | MissionItem | Statement | Identifier | NumberLiteral | ClockTimeLiteral | Comment;
