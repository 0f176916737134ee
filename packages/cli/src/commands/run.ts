import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { compile, renderDiagnostics, type Diagnostic } from "@temporal/compiler";
import { defaultSdk, type Authority, type Mission, type Task, type VerifyingKey } from "@temporal/agent-sdk";
import { createLocalAuthority, defaultHome, readVerifyingKeyFile } from "@temporal/agent-sdk/node";
import { readAtOption } from "../at-option.js";
import { EXIT_OK, UsageError, errorLine, messageOf } from "../errors.js";
import { readMissionFile } from "../files.js";
import { useColor } from "../terminal.js";
import { MissionFileError, failureJson } from "./failure.js";
import { classifyRunFailure, describeCause, unexpectedFailureJson } from "./run-failure.js";
import { describeOutcome, type Outcome, type ReportContext } from "./run-report.js";

export interface RunCommandOptions {
  mission?: string;
  tasks?: string;
  /** As written on the command line; read by the SDK's one ISO 8601 parser. */
  at?: string;
  carbon?: number;
  hsBloch?: number;
  home?: string;
  /** Key files of the retired keys of a rotated home (as `temporalc ledger --previous-key` and the service's `previous_keys`). */
  previousKey?: string[];
  /** The authority name the home's log is signed under; a rotated home needs it (the default derives from the current key). */
  authorityName?: string;
  localClock: boolean;
  dryRun: boolean;
  json: boolean;
  failOnDeny: boolean;
}

/** Exit status when a mission's verdict was DENY and --fail-on-deny was given. */
const EXIT_DENIED = 3;

/**
 * Compiles `file` in memory and runs its missions in order. Every way of
 * stopping is reported the same way: the missions that finished, then one
 * line naming the cause (with --json, one object `{ error, results }`).
 */
export async function runMissions(file: string, options: RunCommandOptions): Promise<number> {
  const progress: Progress = { outcomes: [] };
  try {
    await runAll(file, options, progress);
  } catch (error) {
    return reportStopped(error, progress, options);
  }
  print(progress, options.json);
  return options.failOnDeny && progress.outcomes.some((o) => o.verdict === "DENY") ? EXIT_DENIED : EXIT_OK;
}

/** How far a run got: what to print whether or not it finished. */
interface Progress {
  readonly outcomes: Outcome[];
  report?: ReportContext;
}

async function runAll(file: string, options: RunCommandOptions, progress: Progress): Promise<void> {
  // The generated module imports the SDK this command imports (one instance: its errors are this command's to
  // classify): by URL, since a data: module cannot resolve a package name.
  const sdkUrl = import.meta.resolve("@temporal/agent-sdk");
  const at = options.at === undefined ? undefined : readAtOption(options.at);
  const { text: source, undecodable } = await readMissionFile(file);
  const result: { code?: string; diagnostics: Diagnostic[] } = undecodable.length > 0 ? { diagnostics: undecodable } : compile(source, { filename: file, sdkModule: sdkUrl });
  if (result.diagnostics.length > 0) process.stderr.write(`${renderDiagnostics(result.diagnostics, source, { color: useColor(process.stderr) })}\n`);
  if (result.code === undefined)
    throw new MissionFileError(
      `${file} has errors; nothing ran`,
      result.diagnostics.filter((d) => d.severity === "error"),
    );

  const generated = (await import(`data:text/javascript;base64,${Buffer.from(result.code).toString("base64")}`)) as { missions: Record<string, Mission> };
  const selected = selectMissions(generated.missions, options.mission);
  progress.report = reportContext(selected, options);
  const tasks = options.tasks === undefined ? {} : await loadTasks(options.tasks, selected);
  const clock = at === undefined ? undefined : () => at;
  const authority = await openAuthority(options);
  // The authority tells the time when it is the service (unless --local-clock or --at), so --dry-run needs it too.
  const measures = { ...(clock === undefined ? {} : { clock }), carbon: options.carbon, hsBloch: options.hsBloch, sdk: authority, localClock: options.localClock };

  if (at !== undefined && !options.dryRun) {
    process.stderr.write(`temporalc: note: simulating ${new Date(at).toISOString()}: tasks run, and receipts record it as the time of the action\n`);
  }
  try {
    for (const mission of selected) progress.outcomes.push(options.dryRun ? await mission.evaluate(measures) : await mission.run({ ...measures, tasks }));
  } finally {
    // Once the missions ran, before their results are printed: a line with the code the ledger's other I/O failures carry; the results still stand.
    await authority.close().catch((error: unknown) => process.stderr.write(errorLine("LEDGER_IO_FAILED", `closing the ledger failed: ${describeCause(error)}`)));
  }
}

/**
 * `--home` forces a local authority; otherwise the service in TEMPORAL_URL, or the default home. `--previous-key` and
 * `--authority-name` open a home whose key was rotated, as the service opens one with `previous_keys` and
 * `authority_name`: the retired keys are read by the SDK's `readVerifyingKeyFile`, as the service and `temporalc
 * ledger` read them.
 */
async function openAuthority(options: RunCommandOptions): Promise<Authority> {
  const rotated = options.previousKey !== undefined || options.authorityName !== undefined;
  if (options.home !== undefined || rotated) {
    if (options.home === undefined && process.env["TEMPORAL_URL"]) {
      throw new UsageError("INVALID_ARGUMENT", "--previous-key and --authority-name open a home: give --home <dir> (TEMPORAL_URL is set, so the service would be used)");
    }
    const previousKeys = await Promise.all((options.previousKey ?? []).map(readPreviousKey));
    return createLocalAuthority({ home: options.home ?? defaultHome(), previousKeys, authorityName: options.authorityName });
  }
  try {
    return defaultSdk();
  } catch (error) {
    // TEMPORAL_URL or TEMPORAL_API_KEY is unusable: configuration, so a usage error naming the variable.
    const code = (error as { code?: unknown }).code;
    throw new UsageError(typeof code === "string" ? code : "INVALID_CONFIGURATION", messageOf(error));
  }
}

/** A retired key's file; one that cannot be used is a usage error naming the flag, with the SDK's code (`KEY_MISSING`, `KEY_INVALID`). */
async function readPreviousKey(file: string): Promise<VerifyingKey> {
  try {
    return await readVerifyingKeyFile(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new UsageError(typeof code === "string" ? code : "KEY_INVALID", `--previous-key ${file}: ${messageOf(error)}`);
  }
}

function reportContext(missions: readonly Mission[], options: RunCommandOptions): ReportContext {
  const url = process.env["TEMPORAL_URL"];
  return {
    missions: new Map(missions.map((mission) => [mission.name, mission])),
    carbon: options.carbon,
    hsBloch: options.hsBloch,
    anchoredIn: options.home === undefined && url ? `the service at ${url}` : `home ${options.home === undefined ? defaultHome() : resolve(options.home)}`,
    color: !options.json && useColor(process.stdout),
  };
}

/** The missions that finished, then what stopped the run: text, or one JSON object. */
function reportStopped(error: unknown, progress: Progress, options: RunCommandOptions): number {
  const failure = classifyRunFailure(error);
  const completed = progress.outcomes;
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ error: failure === undefined ? unexpectedFailureJson(error) : failureJson(failure), results: completed }, null, 2)}\n`);
  } else {
    print(progress, false);
  }
  // A bug in temporalc: main() says so on stderr.
  if (failure === undefined) throw error;
  const before = failure.exit === 2 && completed.length > 0 ? [`the missions before it did run: ${completed.map((outcome) => outcome.mission).join(", ")}`] : [];
  process.stderr.write(errorLine(failure.code, failure.message, [...failure.hints, ...before]));
  return failure.exit;
}

function selectMissions(missions: Record<string, Mission>, wanted: string | undefined): Mission[] {
  const all = Object.values(missions);
  if (wanted === undefined) return all;
  const mission = Object.hasOwn(missions, wanted) ? missions[wanted] : undefined;
  if (mission === undefined) throw new UsageError("MISSION_NOT_FOUND", `no mission named ${JSON.stringify(wanted)}; this file has ${all.map((m) => m.name).join(", ")}`);
  return [mission];
}

/** The task functions the module exports; an export that a selected mission executes but that is not a function is named. */
async function loadTasks(specifier: string, missions: readonly Mission[]): Promise<Record<string, Task>> {
  const url = pathToFileURL(resolve(specifier)).href;
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason = code === "ERR_MODULE_NOT_FOUND" ? "no such module" : messageOf(error);
    throw new UsageError("TASKS_NOT_LOADED", `cannot load tasks from ${specifier}: ${reason}`);
  }
  const executed = new Set(missions.flatMap((mission) => [...mission.on.ALLOW, ...mission.on.DENY].flatMap((step) => ("execute" in step ? [step.execute] : []))));
  for (const name of executed) {
    if (Object.hasOwn(module, name) && typeof module[name] !== "function") {
      throw new UsageError("TASK_NOT_A_FUNCTION", `${specifier} exports \`${name}\` but it is ${kindOf(module[name])}, not a function`);
    }
  }
  return Object.fromEntries(Object.entries(module).filter((entry): entry is [string, Task] => typeof entry[1] === "function"));
}

/** `a string`, `an object`, `null`: what a value is, for a sentence. */
function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  const type = Array.isArray(value) ? "array" : typeof value;
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

function print({ outcomes, report }: Progress, json: boolean): void {
  if (json) {
    if (outcomes.length > 0) process.stdout.write(`${JSON.stringify(outcomes.length === 1 ? outcomes[0] : outcomes, null, 2)}\n`);
    return;
  }
  if (report === undefined) return;
  for (const outcome of outcomes) process.stdout.write(describeOutcome(outcome, report));
}
