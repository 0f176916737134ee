import type { AnchorClause, Directive, Handler, MissionFile, MissionItem, Statement } from "./ast.js";

/**
 * Prints an AST as mission source in the canonical layout. Comments are not
 * part of the tree's meaning and are not printed; the formatter keeps them.
 */
export function print(ast: MissionFile): string {
  const blocks: string[] = [];
  if (ast.directives.length > 0) blocks.push(ast.directives.map(printDirective).join("\n"));
  for (const mission of ast.missions) {
    const items = mission.items.map((item) => indent(printItem(item)));
    blocks.push(items.length === 0 ? `mission ${mission.name.name} {}` : [`mission ${mission.name.name} {`, ...items, "}"].join("\n"));
  }
  return blocks.length === 0 ? "" : `${blocks.join("\n\n")}\n`;
}

function printDirective(directive: Directive): string {
  return directive.kind === "VersionDirective" ? `@temporal ${directive.version?.raw ?? ""}` : `@anchor ${directive.code?.name ?? ""}`;
}

function printItem(item: MissionItem): string {
  switch (item.kind) {
    case "PhaseRequirement":
      return `require phase [${item.start.raw}, ${item.end.raw}]`;
    case "CarbonRequirement":
      return `require carbon ${item.operator} ${item.threshold.raw}`;
    case "HsBlochRequirement":
      return `require hs_bloch ${item.operator} ${item.threshold.raw}`;
    case "Handler":
      return printHandler(item);
  }
}

function printHandler(handler: Handler): string {
  if (handler.body.length === 0) return `on ${handler.verdict} {}`;
  return [`on ${handler.verdict} {`, ...handler.body.map((s) => indent(printStatement(s))), "}"].join("\n");
}

function printStatement(statement: Statement): string {
  return statement.kind === "ExecuteStatement" ? `execute ${statement.task.name}` : anchorStatementText(statement.clauses);
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

/** A clause as written, less comments and spacing; a quorum whose number is missing prints as nothing, as the statement means. */
function clauseText(clause: AnchorClause): string {
  if (clause.kind === "SignedZtt") return "signed ZTT";
  return clause.value === null ? "" : `quorum ${clause.value.raw}`;
}

/** The statement with these clauses, in the order given. */
export function anchorStatementText(clauses: readonly AnchorClause[]): string {
  return ["anchor TSAE -> clockchain", ...clauses.map(clauseText)].filter((text) => text !== "").join(" ");
}
