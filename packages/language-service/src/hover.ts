import { DIAGNOSTIC_CODES, docsUrl, type AnchorStatement, type MissionInfo, type Node, type ResolvedWindow } from "@temporal/compiler";
import { MarkupKind, type Hover } from "vscode-languageserver-types";
import type { Position } from "vscode-languageserver-types";
import { toRange, touches, type Analysis } from "./analysis.js";
import { clockIn, degreesToClock, fileZone, isUtc, nextInstantAt, zoneLabel } from "./clock.js";
import type { MissionZone } from "@temporal/agent-sdk";
import { pathAt } from "./nodes.js";
import type { ServiceContext } from "./service-context.js";

/**
 * Hover: what the construct under the cursor means (a window as clock times
 * in its zone, in UTC and in the viewer's zone; a requirement in words; a
 * mission or task and where it is used), followed by the explanation of any
 * diagnostic there.
 */
export function hover(analysis: Analysis, position: Position, context: ServiceContext): Hover | null {
  const offset = analysis.document.offsetAt(position);
  const path = pathAt(analysis.ast, offset);
  const target = path.length > 1 ? meaningful(path) : undefined;
  const sections: string[] = [];
  if (target !== undefined) sections.push(describe(target, path, analysis, context));
  const diagnostics = analysis.diagnostics.filter((d) => touches(d.range, offset));
  for (const d of diagnostics) {
    const { title, severity } = DIAGNOSTIC_CODES[d.code];
    const help = d.help === undefined ? "" : `\n\nhelp: ${d.help}`;
    sections.push(`**${d.code}** ${title} (${severity})\n\n${d.message}${help}\n\n[${d.code} in docs/diagnostics.md](${docsUrl(d.code)})`);
  }
  const shown = sections.filter((s) => s !== "");
  if (shown.length === 0) return null;
  const rangeNode = target ?? diagnostics[0];
  return {
    contents: { kind: MarkupKind.Markdown, value: shown.join("\n\n---\n\n") },
    ...(rangeNode === undefined ? {} : { range: toRange(analysis.document, rangeNode.range) }),
  };
}

/** The node to explain: a number or name inside a requirement or directive stands for its parent. */
function meaningful(path: readonly Node[]): Node {
  const last = path[path.length - 1]!;
  const parent = path[path.length - 2];
  if ((last.kind === "NumberLiteral" || last.kind === "ClockTime") && parent !== undefined) return parent;
  if (last.kind === "Identifier" && parent?.kind === "AnchorDirective") return parent;
  return last;
}

function describe(node: Node, path: readonly Node[], analysis: Analysis, context: ServiceContext): string {
  const zone = fileZone(analysis.model);
  const mission = missionOf(path, analysis);
  switch (node.kind) {
    case "PhaseRequirement": {
      const window = mission?.windows.find((w) => w.requirement === node);
      return window === undefined ? "" : describeWindow(window, zone, context);
    }
    case "CarbonRequirement": {
      const stricter =
        mission?.carbon !== undefined && mission.carbon !== node ? `\n\nNot the one that decides: \`carbon ${mission.carbon.operator} ${mission.carbon.threshold.raw}\` is stricter.` : "";
      return `**require carbon ${node.operator} ${node.threshold.raw}**\n\nALLOW only while the grid's carbon intensity is ${node.operator === "<" ? "below" : "at most"} ${node.threshold.raw} gCO2eq/kWh. The intensity is read when the mission runs (the \`carbon\` measure); when it is unknown the verdict is DENY.${stricter}`;
    }
    case "HsBlochRequirement": {
      const stricter =
        mission?.hsBloch !== undefined && mission.hsBloch !== node
          ? `\n\nNot the one that decides: \`hs_bloch ${mission.hsBloch.operator} ${mission.hsBloch.threshold.raw}\` is stricter.`
          : "";
      return `**require hs_bloch ${node.operator} ${node.threshold.raw}**\n\nALLOW only while the HS-Bloch quality score (0 to 1) is ${node.operator === ">" ? "above" : "at least"} ${node.threshold.raw}. The score is read when the mission runs (the \`hsBloch\` measure); when it is unknown the verdict is DENY.${stricter}`;
    }
    case "AnchorDirective":
      return describeAnchor(zone);
    case "VersionDirective":
      return node.version === null ? "" : `**@temporal ${node.version.raw}**\n\nThe language version this file is written for.`;
    case "Handler":
      return node.verdict === "ALLOW"
        ? "**on ALLOW**\n\nRuns when every requirement of the mission holds at once."
        : "**on DENY**\n\nRuns when any requirement of the mission does not hold.";
    case "AnchorStatement":
      return describeAnchorStatement(node);
    case "Identifier":
      return describeName(node.name, path, analysis);
    case "Mission":
      return mission === undefined ? "" : describeMission(mission, zone);
    default:
      return "";
  }
}

function describeAnchorStatement(node: AnchorStatement): string {
  const text = ["**anchor TSAE -> clockchain**\n\nIssues a signed TSAE receipt for this run and anchors it in the authority's clockchain, with a proof of inclusion."];
  if (node.signedZtt !== null) {
    text.push(
      "`signed ZTT`: before it is anchored, the receipt is also signed by a fresh key the authority certifies for the mission's phase window only, so anyone with the authority's public keys can check offline that it was signed while the window was open (`verifyZtt`).",
    );
  }
  if (node.quorum !== null) text.push(`\`quorum ${node.quorum.raw}\`: the run waits until at least ${node.quorum.raw} witnesses have cosigned a checkpoint that covers the receipt.`);
  return text.join("\n\n");
}

function missionOf(path: readonly Node[], analysis: Analysis): MissionInfo | undefined {
  const node = path.find((n) => n.kind === "Mission");
  return node === undefined ? undefined : analysis.model.missions[analysis.ast.missions.indexOf(node)];
}

function describeAnchor(zone: MissionZone | undefined): string {
  if (zone === undefined) return "";
  if (typeof zone === "string") {
    return `**@anchor ${zone}**\n\nEvery phase in this file is the wall-clock time of ${zone}, daylight saving included; receipts name the SWT zone nearest to its UTC offset at the time.`;
  }
  return `**@anchor Z${zone}**\n\nEvery phase in this file is read in SWT zone ${zoneLabel(zone)}: 0 degrees is midnight there, 1 degree is 4 minutes.`;
}

function describeWindow(window: ResolvedWindow, zone: MissionZone | undefined, context: ServiceContext): string {
  const heading = `**require phase [${window.requirement.start.raw}, ${window.requirement.end.raw}]**`;
  if (window.normalized === null) return `${heading}\n\nA bound is not a point of the day (0 to 360 degrees, 00:00 to 24:00), so the window has no clock times.`;
  if (zone === undefined) return `${heading}\n\nThe file's time zone is unknown, so the window has no clock times.`;
  if (window.alwaysOpen) return `${heading}\n\nOpen all day: the window covers the whole cycle.`;
  const { start, end } = window.normalized;
  const viewer = context.viewerTimeZone;
  const now = context.now();
  // The next time each bound comes round, read on the UTC clock and on the viewer's (whose offset may change with daylight saving).
  const opens = nextInstantAt(start, zone, now);
  const closes = nextInstantAt(end, zone, now);
  const rows = [
    `| ${zoneLabel(zone)}, the file's zone | ${degreesToClock(start)} | ${degreesToClock(end)} |`,
    // In UTC itself, one row says it.
    ...(isUtc(zone) ? [] : [`| UTC | ${clockIn("UTC", opens)} | ${clockIn("UTC", closes)} |`]),
    `| ${viewer} (yours) | ${clockIn(viewer, opens)} | ${clockIn(viewer, closes)} |`,
  ];
  const wraps = window.wraps ? " It wraps through midnight." : "";
  return `${heading}\n\nOpen from ${degreesToClock(start)} to ${degreesToClock(end)} in ${zoneLabel(zone)}, bounds included.${wraps}\n\n| | opens | closes |\n| --- | --- | --- |\n${rows.join("\n")}`;
}

function describeName(name: string, path: readonly Node[], analysis: Analysis): string {
  const parent = path[path.length - 2];
  if (parent?.kind === "Mission") {
    const mission = missionOf(path, analysis);
    return mission === undefined ? "" : describeMission(mission, fileZone(analysis.model));
  }
  const users = analysis.model.missions.filter((m) => m.tasks.includes(name)).map((m) => `\`${m.name}\``);
  const symbol = analysis.model.symbols.find((s) => s.kind === "task" && s.name === name);
  const count = symbol?.references.length ?? 0;
  return `**task ${name}**\n\nA function the caller passes to \`run({ tasks })\`; executed ${count === 1 ? "once" : `${count} times`} in this file, by ${users.join(", ")}.`;
}

function describeMission(mission: MissionInfo, zone: MissionZone | undefined): string {
  const windows = mission.windows.map((w) =>
    w.normalized === null ? `[${w.requirement.start.raw}, ${w.requirement.end.raw}]` : `${degreesToClock(w.normalized.start)}–${degreesToClock(w.normalized.end)}`,
  );
  const lines = [
    `**mission ${mission.name}**`,
    "",
    windows.length === 0 ? "- phase: any time" : `- phase: ${windows.join(" and ")}${zone === undefined ? "" : ` in ${zoneLabel(zone)}`}`,
    ...(mission.carbon === undefined ? [] : [`- carbon ${mission.carbon.operator} ${mission.carbon.threshold.raw} gCO2eq/kWh`]),
    ...(mission.hsBloch === undefined ? [] : [`- hs_bloch ${mission.hsBloch.operator} ${mission.hsBloch.threshold.raw}`]),
    `- tasks: ${mission.tasks.length === 0 ? "none" : mission.tasks.map((t) => `\`${t}\``).join(", ")}`,
    mission.anchors ? "- anchors a signed receipt" : "- issues no receipt",
  ];
  return lines.join("\n");
}
