import type { Comment, SourceRange } from "./ast.js";

/** Whether a comment lies inside `range`: a fix that rewrites the whole range would drop it. */
export function hasComment(range: SourceRange, comments: readonly Comment[]): boolean {
  return comments.some((c) => c.range.start.offset >= range.start.offset && c.range.end.offset <= range.end.offset);
}
