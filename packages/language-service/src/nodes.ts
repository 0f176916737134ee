import type { MissionFile, Node } from "@temporal/compiler";
import { touches } from "./analysis.js";

/** A node's children in source order: the tree's shape in one place, for every feature that walks it. */
export function childrenOf(node: Node): Node[] {
  switch (node.kind) {
    case "MissionFile":
      return [...node.directives, ...node.missions];
    case "AnchorDirective":
      return node.code === null ? [] : [node.code];
    case "Mission":
      return [node.name, ...node.items];
    case "PhaseRequirement":
      return [node.start, node.end];
    case "CarbonRequirement":
    case "HsBlochRequirement":
      return [node.threshold];
    case "Handler":
      return node.body;
    case "ExecuteStatement":
      return [node.task];
    default:
      return [];
  }
}

/**
 * The nodes that contain `offset`, outermost (the file) first. Where two
 * siblings touch the offset (the cursor between them), the one starting
 * there wins.
 */
export function pathAt(ast: MissionFile, offset: number): Node[] {
  const path: Node[] = [ast];
  for (;;) {
    const children = childrenOf(path[path.length - 1]!).filter((child) => touches(child.range, offset));
    const next = children.find((child) => child.range.start.offset === offset) ?? children[0];
    if (next === undefined) return path;
    path.push(next);
  }
}
