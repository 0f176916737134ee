import type {
  AnchorDirective,
  AnchorStatement,
  CarbonRequirement,
  ClockTimeLiteral,
  Comment,
  ExecuteStatement,
  Handler,
  HsBlochRequirement,
  Identifier,
  Mission,
  MissionFile,
  NumberLiteral,
  PhaseRequirement,
  VersionDirective,
} from "@temporal/compiler";

/**
 * The compiler's AST as Prettier sees it: the same plain objects, plus the
 * bookkeeping Prettier's comment machinery adds to them (`comments` on the
 * node a comment is attached to, and flags on the comment itself).
 */

export interface AttachedComment extends Comment {
  /** Prettier prints `value` in its "comment was not printed" check; it is the comment's text. */
  value: string;
  leading?: boolean;
  trailing?: boolean;
  /** For dangling comments: where in the node they go (see comments.ts). */
  marker?: string;
  printed?: boolean;
}

interface Commented {
  comments?: AttachedComment[];
}

export type FileNode = Omit<MissionFile, "directives" | "missions" | "comments"> & Commented & { directives: DirectiveNode[]; missions: MissionNode[]; comments?: AttachedComment[] };
export type VersionDirectiveNode = VersionDirective & Commented;
export type AnchorDirectiveNode = AnchorDirective & Commented;
export type DirectiveNode = VersionDirectiveNode | AnchorDirectiveNode;
export type MissionNode = Omit<Mission, "items"> & Commented & { items: ItemNode[] };
export type RequirementNode = (PhaseRequirement | CarbonRequirement | HsBlochRequirement) & Commented;
export type HandlerNode = Omit<Handler, "body"> & Commented & { body: StatementNode[] };
export type ItemNode = RequirementNode | HandlerNode;
export type StatementNode = (ExecuteStatement | AnchorStatement) & Commented;
export type LeafNode = (Identifier | NumberLiteral | ClockTimeLiteral) & Commented;

/** Every node the printer visits. */
export type MissionNodeAny = FileNode | DirectiveNode | MissionNode | ItemNode | StatementNode | LeafNode | AttachedComment;

/** A node that owns a list of items between braces (or, for the file, the whole text). */
export type Container = FileNode | MissionNode | HandlerNode;

/** An element of a container's list: a directive or mission, a requirement or handler, a statement. */
export type ListItem = DirectiveNode | MissionNode | ItemNode | StatementNode;

export function isComment(node: { kind: string }): node is AttachedComment {
  return node.kind === "LineComment" || node.kind === "BlockComment";
}

export function locStart(node: { range: { start: { offset: number } } }): number {
  return node.range.start.offset;
}

export function locEnd(node: { range: { end: { offset: number } } }): number {
  return node.range.end.offset;
}
