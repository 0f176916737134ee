import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { compile, renderDiagnostics } from "@temporal/compiler";
import type { Authority, Decision, Mission, RunResult, Task } from "@temporal/agent-sdk";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "../errors.js";
import { describeIoError } from "../files.js";
import { useColor } from "../terminal.js";

export interface RunCommandOptions {
  mission?: string;
  tasks?: string;
  at?: number;
  carbon?: number;
  hsBloch?: number;
  home?: string;
  localClock: boolean;
  dryRun: boolean;
  json: boolean;
  failOnDeny: boolean;
}

/** Exit status when a mission's verdict was DENY and --fail-on-deny was given. */
const EXIT_DENIED = 3;

type Sdk = typeof import("@temporal/agent-sdk");

export async function runMissions(file: string, options: RunCommandOptions): Promise<number> {
  let source: string;
  try {
    source = await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${describeIoError(error)}`);
  }
  // The generated module and this command must share one SDK instance.
  const sdkUrl = import.meta.resolve("@temporal/agent-sdk");
  const result = compile(source, { filename: file, sdkModule: sdkUrl });
  if (result.diagnostics.length > 0) process.stderr.write(`${renderDiagnostics(result.diagnostics, source, { color: useColor(process.stderr) })}\n`);
  if (result.code === undefined) return EXIT_FAILURE;

  const generated = (await import(`data:text/javascript;base64,${Buffer.from(result.code).toString("base64")}`)) as { missions: Record<string, Mission> };
  const selected = selectMissions(generated.missions, options.mission);
  const tasks = options.tasks === undefined ? {} : await loadTasks(options.tasks);
  const sdk = (await import(sdkUrl)) as Sdk;
  const clock = options.at === undefined ? undefined : () => options.at!;
  const authority = await openAuthority(options, sdk);
  // The authority tells the time when it is the service (unless --local-clock or --at), so --dry-run needs it too.
  const measures = { ...(clock === undefined ? {} : { clock }), carbon: options.carbon, hsBloch: options.hsBloch, sdk: authority, localClock: options.localClock };

  if (options.at !== undefined && !options.dryRun) {
    process.stderr.write(`temporalc: note: simulating ${new Date(options.at).toISOString()}: tasks run, and receipts record it as the time of the action\n`);
  }
  const outcomes: Outcome[] = [];
  try {
    for (const mission of selected) outcomes.push(options.dryRun ? await mission.evaluate(measures) : await mission.run({ ...measures, tasks }));
  } catch (error) {
    return reportStopped(error, sdk, outcomes, options);
  } finally {
    await authority.close().catch((error: unknown) => process.stderr.write(`temporalc: closing the ledger failed: ${describeCause(error)}\n`));
  }
  print(outcomes, options.json);
  return exitFor(outcomes, options);
}

/** `--home` forces a local authority; otherwise the service in TEMPORAL_URL, or the default home. */
async function openAuthority(options: RunCommandOptions, sdk: Sdk): Promise<Authority> {
  if (options.home !== undefined) return (await import("@temporal/agent-sdk/node")).createLocalAuthority({ home: options.home });
  try {
    return sdk.defaultSdk();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** One line for a mission that could not finish, and what it had already done; the missions before it are printed as usual. */
function reportStopped(error: unknown, sdk: Sdk, completed: Outcome[], options: RunCommandOptions): number {
  if (error instanceof sdk.AuthorityUnavailableError) {
    // Storage, configuration or the service: fixed outside the mission file, so exit 2 like other I/O problems.
    if (options.json) process.stdout.write(`${JSON.stringify({ error: errorJson(error), results: completed }, null, 2)}\n`);
    else print(completed, false);
    const before = completed.length === 0 ? "" : `\n  the missions before it did run: ${completed.map((outcome) => outcome.mission).join(", ")}`;
    process.stderr.write(`temporalc: ${error.message}${before}\n`);
    return EXIT_USAGE;
  }
  print(completed, options.json);
  if (error instanceof sdk.MissingTasksError) {
    process.stderr.write(`temporalc: ${error.message}\n  hint: export ${error.missing.join(", ")} from a module and pass it with --tasks\n`);
    return EXIT_FAILURE;
  }
  if (error instanceof sdk.TaskFailedError || error instanceof sdk.AnchorFailedError) {
    const cause = describeCause(error.cause);
    const what = error instanceof sdk.TaskFailedError ? `task ${JSON.stringify(error.task)} of mission ${JSON.stringify(error.mission)} failed` : `mission ${JSON.stringify(error.mission)} could not anchor its receipt`;
    process.stderr.write(`temporalc: ${what}: ${cause}\n  already ran: ${error.executed.join(", ") || "nothing"}; receipts anchored: ${error.anchors.length}\n`);
    return isStorageProblem(error.cause) ? EXIT_USAGE : EXIT_FAILURE;
  }
  throw error;
}

function errorJson(error: { code: string; message: string; mission: string; cause?: unknown }): object {
  const cause = error.cause as { code?: unknown; status?: unknown } | undefined;
  return {
    code: error.code,
    mission: error.mission,
    message: error.message,
    cause: { ...(typeof cause?.code === "string" ? { code: cause.code } : {}), ...(typeof cause?.status === "number" ? { status: cause.status } : {}), message: describeCause(cause) },
  };
}

const STORAGE_CODES = new Set(["HOME_LOCKED", "LEDGER_CORRUPT", "LEDGER_IO_FAILED", "LEDGER_MIGRATION_REQUIRED", "KEY_MISSING", "KEY_INVALID"]);

/** Problems with the ledger's folder or files are I/O errors (exit 2), not failures of the mission. */
function isStorageProblem(cause: unknown): boolean {
  const code = (cause as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && (STORAGE_CODES.has(code) || (cause as { syscall?: unknown }).syscall !== undefined);
}

function describeCause(cause: unknown): string {
  if ((cause as { syscall?: unknown } | undefined)?.syscall !== undefined) {
    const { path } = cause as { path?: string };
    return `${path === undefined ? "" : `${path}: `}${describeIoError(cause)}`;
  }
  return cause instanceof Error ? cause.message : String(cause);
}

function selectMissions(missions: Record<string, Mission>, wanted: string | undefined): Mission[] {
  const all = Object.values(missions);
  if (wanted === undefined) return all;
  const mission = Object.hasOwn(missions, wanted) ? missions[wanted] : undefined;
  if (mission === undefined) throw new UsageError(`no mission named ${JSON.stringify(wanted)}; this file has ${all.map((m) => m.name).join(", ")}`);
  return [mission];
}

async function loadTasks(specifier: string): Promise<Record<string, Task>> {
  const url = pathToFileURL(resolve(specifier)).href;
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason = code === "ERR_MODULE_NOT_FOUND" ? "no such module" : error instanceof Error ? error.message : String(error);
    throw new UsageError(`cannot load tasks from ${specifier}: ${reason}`);
  }
  return Object.fromEntries(Object.entries(module).filter((entry): entry is [string, Task] => typeof entry[1] === "function"));
}

function exitFor(outcomes: { verdict: string }[], options: RunCommandOptions): number {
  return options.failOnDeny && outcomes.some((o) => o.verdict === "DENY") ? EXIT_DENIED : EXIT_OK;
}

/** A decision (`--dry-run`), or a decision and what its block did. */
type Outcome = Decision | RunResult;

function print(outcomes: Outcome[], json: boolean): void {
  if (json) {
    if (outcomes.length > 0) process.stdout.write(`${JSON.stringify(outcomes.length === 1 ? outcomes[0] : outcomes, null, 2)}\n`);
    return;
  }
  for (const outcome of outcomes) process.stdout.write("executed" in outcome ? describeResult(outcome) : describeDecision(outcome));
}

type DecisionLike = Pick<RunResult, "mission" | "verdict" | "reasons" | "ctx" | "next_open_unix_ms">;

function describeDecision(decision: DecisionLike): string {
  const { ctx } = decision;
  const when = `at ${ctx.utc}, zone Z${ctx.swt_zone}, phase ${Number(ctx.phase_deg.toFixed(3))}°`;
  const head = decision.verdict === "ALLOW" ? `${decision.mission}: ALLOW ${when}\n` : `${decision.mission}: DENY (${decision.reasons.join(", ")}) ${when}\n`;
  const next = decision.next_open_unix_ms === undefined ? "" : `  phase window opens at ${new Date(decision.next_open_unix_ms).toISOString()}\n`;
  return head + next;
}

function describeResult(result: RunResult): string {
  const ran = `  ran: ${result.executed.length === 0 ? "nothing" : result.executed.join(", ")}\n`;
  const anchors = result.anchors
    .map((a) => `  receipt anchored: tile ${a.tile_id}, leaf ${a.leaf_index} of ${a.tree_size}, root ${a.root_hash}\n`)
    .join("");
  return describeDecision(result) + ran + anchors;
}
