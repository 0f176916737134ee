import type { Mission, MissionItem, Node } from "@temporal/compiler";
import { FoldingRangeKind, SymbolKind, type DocumentSymbol, type FoldingRange, type Position, type SelectionRange } from "vscode-languageserver-types";
import { toRange, type Analysis } from "./analysis.js";
import { pathAt } from "./nodes.js";

/** The outline: missions, their requirements and handlers, the handlers' statements. */
export function documentSymbols(analysis: Analysis): DocumentSymbol[] {
  const { document } = analysis;
  const symbol = (name: string, kind: SymbolKind, node: { range: Node["range"] }, selection: { range: Node["range"] } = node, children?: DocumentSymbol[]): DocumentSymbol => ({
    name,
    kind,
    range: toRange(document, node.range),
    selectionRange: toRange(document, selection.range),
    ...(children === undefined ? {} : { children }),
  });
  const item = (node: MissionItem): DocumentSymbol => {
    switch (node.kind) {
      case "PhaseRequirement":
        return symbol(`phase [${node.start.raw}, ${node.end.raw}]`, SymbolKind.Property, node);
      case "CarbonRequirement":
        return symbol(`carbon ${node.operator} ${node.threshold.raw}`, SymbolKind.Property, node);
      case "HsBlochRequirement":
        return symbol(`hs_bloch ${node.operator} ${node.threshold.raw}`, SymbolKind.Property, node);
      case "Handler":
        return symbol(
          `on ${node.verdict}`,
          SymbolKind.Event,
          node,
          node,
          node.body.map((s) => (s.kind === "ExecuteStatement" ? symbol(s.task.name, SymbolKind.Function, s, s.task) : symbol("anchor TSAE -> clockchain", SymbolKind.Event, s))),
        );
    }
  };
  const mission = (node: Mission): DocumentSymbol => symbol(node.name.name || "(unnamed)", SymbolKind.Module, node, node.name, node.items.map(item));
  return analysis.ast.missions.map(mission);
}

/** Folds missions, handlers and block comments that span lines (the closing line stays visible). */
export function foldingRanges(analysis: Analysis): FoldingRange[] {
  const { document, ast } = analysis;
  const ranges: FoldingRange[] = [];
  const fold = (node: { range: Node["range"] }, kind?: FoldingRangeKind) => {
    const { start, end } = toRange(document, node.range);
    const endLine = kind === FoldingRangeKind.Comment ? end.line : end.line - 1;
    if (endLine > start.line) ranges.push({ startLine: start.line, endLine, ...(kind === undefined ? {} : { kind }) });
  };
  for (const mission of ast.missions) {
    fold(mission);
    for (const item of mission.items) if (item.kind === "Handler") fold(item);
  }
  for (const comment of ast.comments) if (comment.kind === "BlockComment") fold(comment, FoldingRangeKind.Comment);
  return ranges.sort((a, b) => a.startLine - b.startLine);
}

/** For each position, the nodes around it from the innermost out to the whole file. */
export function selectionRanges(analysis: Analysis, positions: readonly Position[]): SelectionRange[] {
  const { document, ast } = analysis;
  return positions.map((position) => {
    let parent: SelectionRange | undefined;
    for (const node of pathAt(ast, document.offsetAt(position))) {
      const range = toRange(document, node.range);
      if (parent !== undefined && sameRange(parent.range, range)) continue;
      parent = parent === undefined ? { range } : { range, parent };
    }
    return parent!;
  });
}

function sameRange(a: SelectionRange["range"], b: SelectionRange["range"]): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}
