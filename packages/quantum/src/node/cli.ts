/**
 * `temporal-quantum`: orchestrate() from the command line, anchoring through
 * the local authority of a home. Node-only.
 */

import { readFile } from "node:fs/promises";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { parseCarbonForecast, parseIsoInstant, type CarbonSeries } from "@temporal/agent-sdk";
import { createLocalAuthority, defaultHome } from "@temporal/agent-sdk/node";
import { KNOWN_BACKENDS } from "../backends.js";
import { QuantumError } from "../errors.js";
import { orchestrate, type OrchestrateVerdict } from "../orchestrate.js";
import { MAX_SCHEDULE_QUBITS } from "../scheduling.js";

/** Exit statuses, as temporalc's: 3 is temporalc run's DENY, here DELAY. */
const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;
const EXIT_DELAYED = 3;

/** A bad command line (`INVALID_ARGUMENT`): one line on stderr, exit status 2. */
class UsageError extends Error {
  readonly code = "INVALID_ARGUMENT";
}

interface RunOptions {
  tasks: number;
  slots: number;
  backend: string;
  depth?: number;
  noise?: number;
  shots?: number;
  seed?: number;
  zne: boolean;
  carbonAware: boolean;
  forecast?: string;
  location?: string;
  at?: number;
  zone?: string;
  purpose?: string;
  home?: string;
  json: boolean;
}

const RUN_HELP = `
What it does:
  Places --tasks tasks into the next --slots one-hour (15-degree) slots of the
  cycle, as a QUBO of tasks x slots qubits, solved with QAOA on the chosen
  backend; then anchors the result as a TSAE (scope quantum.<purpose>.v1) in
  the clockchain of the home. It runs only while the zone-local phase is in
  [200, 280] degrees; with --carbon-aware, only when the coming hour is not
  more than 1.5x dirtier than the cleanest slot of the horizon that starts
  inside the window. Otherwise the verdict is DELAY with the reason and the
  recommended start.
  The model, the options and the limits: docs/quantum.md.

Exit status: 0 ALLOW (the result is anchored), 3 DELAY, 2 for usage errors
(an unknown option, a bad value, an unknown backend, too many qubits, a bad
forecast file), 1 when the run or the anchoring failed.

Examples:
  $ temporal-quantum run --tasks 3 --slots 3 --at 2026-01-01T14:00:00Z
  $ temporal-quantum run --tasks 2 --slots 3 --backend statevector-noisy --noise 0.01 --zne --seed 7 --json
  $ temporal-quantum run --tasks 4 --slots 4 --carbon-aware --forecast forecast.json --home /srv/temporal`;

function integer(name: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${name} must be an integer ${min}..${max}`);
    return n;
  };
}

function nonNegative(name: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`${name} must be a number >= 0`);
    return n;
  };
}

function instant(value: string): number {
  const ms = parseIsoInstant(value);
  if (ms === undefined) throw new InvalidArgumentError('must be an ISO 8601 instant with a UTC offset, such as "2026-01-01T14:00:00Z"');
  return ms;
}

export function program(): Command {
  const root = new Command("temporal-quantum")
    .description("Phase-gated QAOA scheduling of quantum workloads, anchored in the clockchain (@temporal/quantum).")
    .helpOption("-h, --help", "show help for temporal-quantum or a command")
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`temporal-quantum: ${text.replace(/^error: /, "")}`) });
  root
    .command("run")
    .description("gate on phase (and carbon), run the scheduling QAOA job and anchor its result")
    .addOption(new Option("--tasks <n>", "number of tasks to place").argParser(integer("--tasks", 1, 20)).makeOptionMandatory())
    .addOption(
      new Option("--slots <n>", `horizon slots: the next n one-hour slots (tasks x slots qubits, at most ${MAX_SCHEDULE_QUBITS}; the backend may allow fewer)`)
        .argParser(integer("--slots", 1, 24))
        .makeOptionMandatory(),
    )
    .addOption(new Option("--backend <id>", `backend id: ${KNOWN_BACKENDS.join(", ")}`).default("statevector"))
    .addOption(new Option("--depth <p>", "QAOA depth p (layers of cost and mixer)").argParser(integer("--depth", 1, 10)))
    .addOption(new Option("--noise <p>", "depolarizing strength per gate for statevector-noisy").argParser(nonNegative("--noise")))
    .addOption(new Option("--shots <n>", "samples of the final state to find the best schedule").argParser(integer("--shots", 1, 1_000_000)))
    .addOption(new Option("--seed <n>", "seed of every random choice: the same inputs and seed give the same result").argParser(integer("--seed", 0, 2 ** 32 - 1)))
    .option("--zne", "zero-noise extrapolation (folding at 1, 3, 5; Richardson)", false)
    .option("--carbon-aware", "weigh each slot's forecast carbon intensity, and DELAY when now is far dirtier (needs --forecast)", false)
    .option("--forecast <file>", "a file holding the carbon forecast: Carbon Aware SDK JSON (GET /emissions/forecasts/current), or one number for a flat intensity")
    .option("--location <name>", "the forecast location to use when the file holds several")
    .addOption(new Option("--at <iso>", "simulate this instant instead of now (receipts record it)").argParser(instant))
    .option("--zone <zone>", "SWT zone whose local phase is gated, Z0..Z11 (default Z0)")
    .option("--purpose <name>", "receipt scope quantum.<name>.v1 (default schedule)")
    .addOption(new Option("--home <dir>", "home of the local authority: signing key and clockchain (default: $TEMPORAL_HOME, else ./.temporal)"))
    .option("--json", "print the verdict as JSON: { verdict, result, receipt, proof } or { verdict, reason, ... }", false)
    .addHelpText("after", RUN_HELP)
    .action(async (options: RunOptions) => {
      process.exitCode = await run(options);
    });
  for (const command of [root, ...root.commands])
    command.showHelpAfterError(`Try '${command === root ? "temporal-quantum" : `temporal-quantum ${command.name()}`} --help' for more information.`);
  return root;
}

async function run(options: RunOptions): Promise<number> {
  if (options.carbonAware && options.forecast === undefined) throw new UsageError("--carbon-aware needs --forecast <file> (a Carbon Aware SDK forecast, or a bare intensity)");
  const carbon = options.forecast === undefined ? undefined : await readForecast(options.forecast, options.location);
  const authority = createLocalAuthority({ home: options.home ?? defaultHome() });
  try {
    const verdict = await orchestrate({
      nTasks: options.tasks,
      nHS: options.slots,
      backend: options.backend,
      depth: options.depth,
      noise: options.noise,
      shots: options.shots,
      seed: options.seed,
      zne: options.zne,
      carbonAware: options.carbonAware,
      carbon,
      purpose: options.purpose,
      zone: options.zone as `Z${number}` | undefined,
      authority,
      clock: options.at === undefined ? undefined : () => options.at!,
    });
    process.stdout.write(options.json ? `${JSON.stringify(verdict, null, 2)}\n` : describe(verdict));
    return verdict.verdict === "ALLOW" ? EXIT_OK : EXIT_DELAYED;
  } finally {
    await authority.close();
  }
}

async function readForecast(file: string, location: string | undefined): Promise<CarbonSeries> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new UsageError(`cannot read the forecast ${file}: ${(error as Error).message}`);
  }
  try {
    return parseCarbonForecast(json, location === undefined ? {} : { location });
  } catch (error) {
    throw new UsageError(`forecast ${file}: ${(error as Error).message}`);
  }
}

/** The verdict for a person: what runs when, or why to wait and until when. */
function describe(verdict: OrchestrateVerdict): string {
  if (verdict.verdict === "DELAY") {
    const carbon = verdict.carbon === undefined ? "" : ` (the coming hour ${round(verdict.carbon.current)} gCO2eq/kWh, the cleanest slot ${round(verdict.carbon.best)})`;
    return `DELAY ${verdict.reason}: phase ${round(verdict.phase_deg)} deg${carbon}; retry at ${verdict.recommended_start_utc}\n`;
  }
  const { result, receipt, proof } = verdict;
  const { qaoa, schedule } = result;
  const lines = [
    `ALLOW: ${result.n_tasks} tasks in ${result.n_hs} slots, ${qaoa.qubits} qubits, QAOA p=${qaoa.depth} on ${qaoa.backend}, ${qaoa.evaluations} evaluations`,
    ...result.slots.map((slot) => {
      const tasks = schedule.assignment.flatMap((s, t) => (s === slot.index ? [`task ${t}`] : []));
      const carbon = slot.carbon_intensity === undefined ? "" : `, ${round(slot.carbon_intensity)} gCO2eq/kWh`;
      return `  slot ${slot.index} ${new Date(slot.start_unix_ms).toISOString()} (phase ${round(slot.phase_deg)} deg${carbon}): ${tasks.join(", ") || "-"}`;
    }),
    `cost ${round(schedule.cost)}${qaoa.exact === undefined ? "" : ` (optimum ${round(qaoa.exact.cost)})`}${schedule.repaired ? ", repaired from an infeasible sample" : ""}${schedule.conflicts.length > 0 ? `, ${schedule.conflicts.length} conflicting pairs` : ""}`,
    `energy ${round(qaoa.energy)}${qaoa.zne === undefined ? "" : `, mitigated ${round(qaoa.zne.mitigated)}`}${qaoa.approximationRatio === undefined ? "" : `, approximation ratio ${round(qaoa.approximationRatio)}`}`,
    `anchored: ${receipt.scope} tile ${proof.tile_id} leaf ${proof.leaf_index}, action hash ${receipt.action_hash_hex}`,
  ];
  return `${lines.join("\n")}\n`;
}

function round(x: number): string {
  return String(Math.round(x * 1000) / 1000);
}

/** Runs `temporal-quantum` with `argv` (without node and the script) and sets the exit status; see RUN_HELP. */
export async function main(argv: readonly string[]): Promise<void> {
  try {
    await program().parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed the message and the hint; it exits 0 for --help.
      process.exitCode = error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
      return;
    }
    // Usage, options the library refuses (unknown backend, too many qubits, a bad zone) and bad forecasts: what to fix, exit 2.
    if (error instanceof UsageError || error instanceof QuantumError || isCodedRangeOrType(error)) {
      process.stderr.write(`temporal-quantum: ${(error as UsageError).code}: ${(error as Error).message}\nTry 'temporal-quantum run --help' for more information.\n`);
      process.exitCode = EXIT_USAGE;
      return;
    }
    process.exitCode = EXIT_FAILURE;
    // The home's errors (LEDGER_CORRUPT, HOME_NOT_WRITABLE, ...) and file-system errors carry a code that says what to look up.
    if (typeof (error as { code?: unknown }).code === "string") process.stderr.write(`temporal-quantum: ${(error as { code: string }).code}: ${(error as Error).message}\n`);
    // Anything else is a bug: its stack is worth reporting.
    else process.stderr.write(`temporal-quantum: unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
}

/** The SDK's argument errors (a bad zone): TemporalRangeError / TemporalTypeError carry a code too. */
function isCodedRangeOrType(error: unknown): boolean {
  return (error instanceof RangeError || error instanceof TypeError) && typeof (error as { code?: unknown }).code === "string";
}
