import { writeSync } from "node:fs";
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { EXIT_FAILURE, EXIT_USAGE, UsageError, errorLine, messageErrorLine, stopText } from "./errors.js";
import { carbonIntensity, hsBlochScore } from "./run-options.js";

/**
 * temporalc's entry point. Only commander is loaded up front; each command's
 * implementation (and the compiler behind it) is imported when it runs, so
 * `--help` and `--version` start as fast as Node itself.
 */

declare const TEMPORALC_VERSION: string;

function nonNegativeInteger(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("expected a whole number of 0 or more");
  return Number(value);
}

function portNumber(value: string): number {
  const port = nonNegativeInteger(value);
  if (port > 65535) throw new InvalidArgumentError("expected a port from 0 to 65535");
  return port;
}

function positiveInteger(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError("expected a whole number of 1 or more");
  return Number(value);
}

function program(): Command {
  const cli = new Command("temporalc")
    .description("Check, compile and run .mission files: temporal permissions for your code.")
    .version(TEMPORALC_VERSION, "-v, --version", "print the temporalc version (-V also works)")
    .helpOption("-h, --help", "show help for temporalc or a command")
    .showSuggestionAfterError()
    // Commander's errors (an unknown option, a bad value) are printed by main(), as temporalc's own: see commanderErrorText.
    .configureOutput({ outputError: () => {} })
    .exitOverride();

  cli
    .command("check")
    .description("parse and check mission files, reporting every problem with its location")
    .argument("<files...>", "mission files, or folders to search for *.mission files; - reads standard input")
    .option("--json", "print the diagnostics, the paths that could not be read or rewritten, and a summary as JSON", false)
    .addOption(
      new Option("--format <format>", "text; json (the same as --json); sarif (SARIF 2.1.0, for code scanning); github (workflow annotations)")
        .choices(["text", "json", "sarif", "github"])
        .default("text"),
    )
    .option("--fix", "apply every fix that is certain (one per problem), check again and rewrite the files", false)
    .option("--max-warnings <n>", "fail when there are more than n warnings", nonNegativeInteger)
    .option("-q, --quiet", "print only errors: no warnings, no summary", false)
    .option("--stdin-filepath <path>", "the name standard input (-) goes by in diagnostics")
    .option("-w, --watch", "check again whenever a .mission file changes; Ctrl-C stops", false)
    .addHelpText(
      "after",
      `
Every diagnostic ends with \`= help: temporalc explain <code>\`, the command
that explains it.

Exit status: 0 when no file has an error (and no more than --max-warnings
warnings), 1 when any file has an error, 2 for usage or I/O errors. With
--watch: 130 when stopped with Ctrl-C.

Examples:
  $ temporalc check examples/nightly-backup.mission
  $ temporalc check missions/ --max-warnings 0
  $ temporalc check a.mission --json | jq .summary
  $ temporalc check missions/ --fix
  $ temporalc check missions/ --format sarif > temporalc.sarif
  $ temporalc check missions/ --format github      # in a GitHub Actions step
  $ cat a.mission | temporalc check - --stdin-filepath a.mission
  $ temporalc check missions/ --watch`,
    )
    .action(async (files: string[], options: import("./commands/check.js").CheckOptions & { watch: boolean }) => {
      const { runCheck } = await import("./commands/check.js");
      process.exitCode = await watchingIf(options.watch, files, () => runCheck(files, options));
    });

  cli
    .command("compile")
    .description("compile mission files to JavaScript modules that gate on @temporal/agent-sdk")
    .argument("<files...>", "mission files, or folders to search for *.mission files")
    .option("-o, --out-dir <dir>", "write the modules here instead of next to each source")
    .addOption(new Option("--format <format>", "module format").choices(["esm", "cjs"]).default("esm"))
    .option("--sourcemap", "also write a source map (<module>.map) and link it", false)
    .option("--dts", "also write TypeScript declarations (<name>.d.mts, or .d.cts with --format cjs)", false)
    .option("--stdout", "print the module instead of writing it (one file, or - for standard input)", false)
    .option("--json", "print a JSON report (each file's output, whether it was written, its diagnostics) instead of text", false)
    .option("-q, --quiet", "print only errors: no warnings, no summary", false)
    .option("-w, --watch", "compile again whenever a .mission file changes; Ctrl-C stops", false)
    .addHelpText(
      "after",
      `
Each file becomes <name>.mjs (or .cjs with --format cjs), and with --dts also
<name>.d.mts (or .d.cts): declarations that type each mission's run() with the
exact tasks it executes. A file with errors gets its diagnostics printed and
nothing written; the other files still compile. Files are replaced atomically.

--format is the module format, so the report format is --json (as for
check, fmt, run and ledger).

Exit status: 0 when every file compiled, 1 when any had errors, 2 for usage
or I/O errors (such as an --out-dir that cannot be created: the message
says why). With --watch: 130 when stopped with Ctrl-C.

Examples:
  $ temporalc compile examples/nightly-backup.mission
  $ temporalc compile missions/ --out-dir build/missions --sourcemap
  $ temporalc compile missions/ --out-dir src/generated --dts
  $ temporalc compile job.mission --format cjs --stdout
  $ temporalc compile missions/ --out-dir build --watch`,
    )
    .action(async (files: string[], options: import("./commands/compile.js").CompileCommandOptions & { watch: boolean }) => {
      const { runCompile } = await import("./commands/compile.js");
      process.exitCode = await watchingIf(options.watch, files, () => runCompile(files, options));
    });

  cli
    .command("run")
    .description("compile a mission file in memory and run it now (local authority, or the service in $TEMPORAL_URL)")
    .argument("<file>", "the mission file")
    .option("--mission <name>", "run only this mission (default: every mission, in order)")
    .option("--tasks <module>", "a JavaScript module whose named exports are the task functions")
    .option("--at <time>", "pretend it is this time (ISO 8601 with a zone, e.g. 2026-11-22T23:30:00Z)")
    .option("--carbon <gCO2eq/kWh>", "the current grid carbon intensity, a decimal number", carbonIntensity)
    .option("--hs-bloch <score>", "the current HS-Bloch quality score, 0 to 1 (e.g. 0.95)", hsBlochScore)
    .option("--home <dir>", "where keys and the ledger live (default: $TEMPORAL_HOME or ./.temporal); forces the local authority even with TEMPORAL_URL set")
    .option("--previous-key <file...>", "key files (PEM) of retired keys that signed earlier checkpoints of the home's rotated log")
    .option("--authority-name <name>", "the authority name the home's log is signed under (needed after a rotation; default: temporal-authority/<key id>)")
    .option("--local-clock", "with the service in $TEMPORAL_URL, read the phase from this machine's clock instead of the service's", false)
    .option("--dry-run", "decide the verdict only, and list what would run and be anchored: run no task, issue no receipt", false)
    .option("--json", "print the result object (an array for several missions)", false)
    .option("--fail-on-deny", "exit with status 3 when any verdict is DENY", false)
    .addHelpText(
      "after",
      `
A mission that requires carbon or HS-Bloch and is given no value is denied
(fail closed). Receipts are signed with a key created under --home on first
use and anchored in its ledger; with TEMPORAL_URL (and TEMPORAL_API_KEY) set
and no --home, the service at that URL issues and anchors them instead
(see docs/service.md), and the phase is read from its clock. With --at,
tasks run and receipts record the given time as the time of the action
(the receipt's issue time stays real).

A mission whose block anchors a receipt checks first that it can: the home
is writable and its ledger sound, or the service answers and accepts the
key. If not, no task runs and the one-line error says what to fix (exit 2).
With --json, every failure is one object { error: { code, message, ... },
results } on standard output (docs/compiling.md lists the codes).

Exit status: 0 when the missions ran (ALLOW or DENY), 1 for errors in the
file or a failing task, 2 for usage, I/O, authority or service errors, 3
for DENY with --fail-on-deny.

Examples:
  $ temporalc run examples/nightly-backup.mission --tasks examples/tasks.mjs --carbon 180
  $ temporalc run examples/ml-training.mission --dry-run --at 2026-11-22T03:00:00Z --carbon 90
  $ temporalc run ops.mission --mission rotate_keys --tasks ./tasks.mjs --json`,
    )
    .action(async (file: string, options: Parameters<typeof import("./commands/run.js").runMissions>[1]) => {
      const { runMissions } = await import("./commands/run.js");
      process.exitCode = await runMissions(file, options);
    });

  cli
    .command("show")
    .description("draw when each mission is open: a 24-hour bar per mission (windows, now, next change), or the SVG dial")
    .argument("<file>", "the mission file")
    .option("--at <time>", "show this instant instead of now (ISO 8601 with a zone, as run --at, e.g. 2026-11-22T23:30:00Z)")
    .option("--svg <file>", "also write the 24-hour dial as SVG (the playground's, byte for byte)")
    .option("--mission <name>", "show only this mission")
    .option("--json", "print the dial as JSON (arcs in degrees, open now, next change, hour rings, DST notes)", false)
    .addHelpText(
      "after",
      `
Each bar is the day on the file's anchored clock, in 48 half-hour cells:
█ open the whole half hour, ▒ part of it, · closed; ^ marks now. The
rows of hours above and below are the anchored zone's, UTC's and yours
(your time zone is TZ, else the system's). Whether a mission is open, and
when that changes, are the runtime's answers; carbon and HS-Bloch
requirements are named, since they are only known when it runs.

Output, for example:
  $ TZ=America/New_York temporalc show examples/nightly-backup.mission --at 2026-11-22T23:30:00Z
  nightly_backup  [20:00, 02:00]
    Z1 (UTC+2)        00    03    06    09    12    15    18    21
                      ████▒···································████████
                         ^ now
    UTC                   00    03    06    09    12    15    18    21
    America/New_York    18    21    00    03    06    09    12    15
    open now, closes at 02:00 Z1 (UTC+2) (00:00 UTC), in 30 min; and only if carbon < 250 when it runs

Exit status: 0 when the dial was drawn, 1 when the file has errors (shown
as by check, code MISSION_FILE_INVALID), 2 for usage or I/O errors, each with a code: FILE_NOT_FOUND,
FILE_UNREADABLE, INVALID_TIME, MISSION_NOT_FOUND, WRITE_FAILED; 1 with INTERNAL_ERROR for a bug
in temporalc. With --json, a stop is also { "error": { code, message, path?, diagnostics? } } on stdout, as for run.

Examples:
  $ temporalc show examples/nightly-backup.mission
  $ temporalc show ops.mission --mission rotate_keys --at 2027-03-28T00:30:00Z
  $ temporalc show ops.mission --svg dial.svg
  $ temporalc show ops.mission --json | jq '.dial.missions[] | {name, open, next}'`,
    )
    .action(async (file: string, options: import("./commands/show.js").ShowOptions) => {
      const { runShow } = await import("./commands/show.js");
      process.exitCode = await runShow(file, options);
    });

  cli
    .command("fmt")
    .description("format mission files in the canonical style (the same as Prettier with prettier-plugin-mission)")
    .argument("[files...]", "mission files, or folders to search for *.mission files (default: the current folder); - reads standard input")
    .option("--check", "list the files that are not formatted, and exit 1 if there are any", false)
    .option("--write", "rewrite the files that are not formatted, in place", false)
    .option("--json", "print a JSON report (each file's status and diagnostics, the paths that could not be read, and a summary) instead of text", false)
    .option("-q, --quiet", "print only errors: no list of files, no summary", false)
    .option("--stdin-filepath <path>", "the name standard input (-) goes by in diagnostics and for finding Prettier's configuration")
    .addHelpText(
      "after",
      `
Without a flag, one file is printed formatted, and for several files the
ones that would change are listed. A file with syntax errors, or that is
not UTF-8 text, is never rewritten: its diagnostics are printed instead,
and the summary counts it as an error, never as formatted. Prettier's
configuration files are honoured. Files are replaced atomically.

A file Prettier cannot format for another reason (a .prettierrc it cannot
parse, a plugin that fails) is reported with the code FORMAT_FAILED.

Exit status (as Prettier's): 0 when formatted, 1 when --check finds files
that are not, 2 for syntax, usage or I/O errors and FORMAT_FAILED.

Examples:
  $ temporalc fmt examples/nightly-backup.mission
  $ temporalc fmt --check .
  $ temporalc fmt --write missions/
  $ temporalc fmt - --stdin-filepath job.mission < job.mission`,
    )
    .action(async (files: string[], options: import("./commands/fmt.js").FmtOptions) => {
      const { runFmt } = await import("./commands/fmt.js");
      process.exitCode = await runFmt(files, options);
    });

  cli
    .command("explain")
    .description("explain a diagnostic code: what it means, why it matters, how to fix it, with an example")
    .argument("<code>", "a code such as M303, as printed with every diagnostic")
    .addHelpText("after", "\nThe text is docs/diagnostics.md's section for the code.\n\nExample:\n  $ temporalc explain M303")
    .action(async (code: string) => {
      const { runExplain } = await import("./commands/explain.js");
      process.exitCode = runExplain(code);
    });

  cli
    .command("completion")
    .description("print a shell completion script for temporalc's commands and options")
    .addArgument(new Argument("<shell>", "the shell to complete in").choices(["bash", "zsh", "fish"]))
    .addHelpText(
      "after",
      `
Examples:
  $ source <(temporalc completion bash)     # in ~/.bashrc
  $ source <(temporalc completion zsh)      # in ~/.zshrc
  $ temporalc completion fish > ~/.config/fish/completions/temporalc.fish`,
    )
    .action(async (shell: "bash" | "zsh" | "fish") => {
      const { runCompletion } = await import("./commands/completion.js");
      process.exitCode = runCompletion(cli, shell);
    });

  cli
    .command("playground")
    .description("serve the playground (the mission language in the browser) on this machine")
    .option("--port <n>", "the port to listen on; 0 picks a free one", portNumber, 5178)
    .option("--host <host>", "the address to listen on", "127.0.0.1")
    .option("--open", "also open it in the default browser", false)
    .option("--dir <dir>", "serve this built playground instead of the installed @temporal/playground's site")
    .addHelpText(
      "after",
      `
Serves the static files of the built playground (npm run build builds them)
until Ctrl-C. Exit status 2 when the playground is not built
(PLAYGROUND_NOT_BUILT), the port is in use (PLAYGROUND_PORT_IN_USE) or
it cannot listen on the address (PLAYGROUND_LISTEN_FAILED).

Examples:
  $ temporalc playground
  $ temporalc playground --port 8080 --open`,
    )
    .action(async (options: import("./commands/playground.js").PlaygroundOptions) => {
      const { runPlayground } = await import("./commands/playground.js");
      process.exitCode = await runPlayground(options);
    });

  cli
    .command("init")
    .description("start a project: a starter mission, its tasks.mjs and a .gitignore entry for .temporal/")
    .argument("[dir]", "the folder to start in (created if missing)", ".")
    .addHelpText(
      "after",
      `
Never overwrites a file: when the mission or tasks.mjs exists, init stops
(exit 2) and writes nothing. Prints the command to try next.

Example:
  $ temporalc init my-missions`,
    )
    .action(async (dir: string) => {
      const { runInit } = await import("./commands/init.js");
      process.exitCode = await runInit(dir);
    });

  cli
    .command("verify")
    .description("verify a ZTT bundle, or a receipt and its anchor proof, offline with the service's public keys")
    .argument("<file>", "a JSON file: a ZTT bundle (POST ztt/sign), { receipt, proof }, an anchor proof or a receipt")
    .requiredOption("--keys <keys.json>", "the service's public keys: the body of GET /api/v1/keys (the certifier's, and the log's unless --log-keys)")
    .option("--log-keys <keys.json>", "the log's public keys (GET /api/v1/keys of the service that anchored), when not those of --keys")
    .option("--require-anchor", "a ZTT bundle without an anchor fails (anchor_receipt)")
    .option("--window <start,end>", "the window the ZTT certificate must be for: two degrees in 0..360, e.g. 330,30; otherwise certificate_interval fails")
    .option("--zone <zone>", "the SWT zone the ZTT certificate must be for, Z0..Z11 or 0..11; otherwise certificate_interval fails")
    .option("--payload <file>", "the ZTT payload's bytes: checked against the bundle's payload_sha256")
    .option("--witness <vkey...>", "cosignature/v1 vkeys of the witnesses you trust: checks finality and, for a ZTT bundle, the witnessed time")
    .option("--quorum <n>", "cosignatures of those witnesses needed (default: a majority)", positiveInteger)
    .option("--json", "print the result as JSON: { valid, kind, checks: [{ name, ok, reason? }] }", false)
    .addHelpText(
      "after",
      `
Nothing is sent anywhere: the checks are the SDK's (verifyZtt, verifyReceipt,
verifyFinality), with the keys you give. Fetch those once from the service you
trust, e.g. curl -s https://clock.example.com/api/v1/keys > keys.json.

What the file may hold, recognised by its shape:
  a ZTT bundle (the reply of POST ztt/sign), or { "bundle": ..., "payload": "text" }
  { "receipt": ..., "proof": ... } (the body of POST quantum/verify)
  an anchor proof (the reply of POST clockchain/anchor or GET clockchain/proof)
  a receipt (the reply of POST security/tsae)

Each check is printed with its name, and why it failed (docs/ztt.md#verify-offline).

Exit status: 0 when every check holds, 1 when one fails, 2 for usage errors,
each with a code: FILE_NOT_FOUND, FILE_UNREADABLE, INVALID_JSON (with
file:line:column), UNKNOWN_SHAPE, INVALID_KEYS, INVALID_WITNESS, INVALID_WINDOW,
INVALID_ZONE.

Examples:
  $ temporalc verify bundle.json --keys keys.json
  $ temporalc verify bundle.json --keys keys.json --payload build-4711.tar.gz
  $ temporalc verify bundle.json --keys certifier.json --log-keys log.json --require-anchor
  $ temporalc verify anchored.json --keys keys.json --witness w1.example+1a2b3c4d+BK... --json`,
    )
    .action(async (file: string, options: import("./commands/verify.js").VerifyOptions) => {
      const { runVerify } = await import("./commands/verify.js");
      process.exitCode = await runVerify(file, options);
    });

  const ledger = cli
    .command("ledger")
    .description("inspect, verify, repair and migrate a home's clockchain ledger")
    .addHelpText(
      "after",
      `
Every subcommand takes --home <dir> (default: $TEMPORAL_HOME or ./.temporal,
as for temporalc run) and --json.

Exit status: 0 when the ledger is valid (or was repaired or migrated), 1
when it is damaged (the report says where: byte offset, tile, leaf), 2 for
usage or I/O errors.

Examples:
  $ temporalc ledger status --home .temporal
  $ temporalc ledger verify --json
  $ temporalc ledger repair --home /srv/temporal
  $ temporalc ledger migrate --home /srv/temporal`,
    );
  const subcommands = [
    ["status", "records, tiles, anchors, last checkpoint, file size, format and lock holder", "runLedgerStatus"],
    ["verify", "check every record, inclusion, checkpoint signature and chain link; exit 1 naming the first problem", "runLedgerVerify"],
    ["repair", "check every record, then remove a torn final write after saving it beside the ledger; refuse (exit 1) any other damage, leaving the file untouched", "runLedgerRepair"],
    ["migrate", "rewrite a format-1 ledger (JSON heads) as signed checkpoints, keeping a backup; idempotent", "runLedgerMigrate"],
  ] as const;
  for (const [name, description, runner] of subcommands) {
    const command = ledger
      .command(name)
      .description(description)
      .option("--home <dir>", "the home whose ledger to use (default: $TEMPORAL_HOME or ./.temporal)")
      .option("--json", "print the result as JSON", false)
      .action(async (options: { home?: string; json: boolean; authorityName?: string; previousKey?: string[] }) => {
        const commands = await import("./commands/ledger.js");
        process.exitCode = await commands[runner](options);
      });
    if (name !== "migrate") {
      // A log rotated to the home's current key holds checkpoints the retired keys signed (docs/service.md, Key rotation).
      command.option("--previous-key <file...>", "key files (PEM) of retired keys that signed earlier checkpoints of a rotated log");
    }
    if (name === "migrate") {
      // The checkpoints it signs name the authority: give the name the service's `authority_name` or createLocalAuthority's `authorityName` will use.
      command.option("--authority-name <name>", "the authority name the new checkpoints' origin carries (default: temporal-authority/<key id>)");
    }
  }

  return cli;
}

/** `--watch`: run now and on every change until Ctrl-C; otherwise just once. */
async function watchingIf(watch: boolean, files: string[], once: () => Promise<number>): Promise<number> {
  if (!watch) return once();
  const { watchAndRun } = await import("./watch.js");
  return watchAndRun(files, once);
}

export async function main(argv: string[]): Promise<void> {
  for (const [stream, name] of [
    [process.stdout, "standard output"],
    [process.stderr, "standard error"],
  ] as const) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      // `temporalc ... | head` closes the pipe early: stop quietly, as Unix tools do.
      if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
      void stopOnOutputFailure(name, error);
    });
  }
  try {
    // -V was the version flag before -v; both keep working.
    await program().parseAsync(argv.length === 3 && argv[2] === "-V" ? [...argv.slice(0, 2), "--version"] : argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander exits 0 for --help and --version; anything else it rejects is a usage error.
      process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
      if (!COMMANDER_HELP.has(error.code)) process.stderr.write(commanderErrorText(error));
      return;
    }
    process.stderr.write(stopText(error));
    process.exitCode = error instanceof UsageError ? EXIT_USAGE : EXIT_FAILURE;
  }
}

/**
 * Standard output or error cannot be written (a full disk: `temporalc check a --json > /dev/full`): one line with
 * WRITE_FAILED, not an uncaught exception, and the I/O exit status. Written straight to file descriptor 2, since the
 * stream that failed may be standard error itself; then nothing more can be said.
 */
async function stopOnOutputFailure(name: string, error: NodeJS.ErrnoException): Promise<never> {
  const { describeIoError } = await import("@temporal/agent-sdk/node");
  try {
    writeSync(2, errorLine("WRITE_FAILED", `cannot write ${name}: ${describeIoError(error)}`));
  } catch {
    // Standard error is what failed: the exit status alone tells.
  }
  process.exit(EXIT_USAGE);
}

/** Commander's exits that print help, not an error (`temporalc ledger` alone shows its help, with exit status 2). */
const COMMANDER_HELP = new Set(["commander.help", "commander.helpDisplayed", "commander.version"]);

/**
 * A usage error commander found, as temporalc's own: `temporalc: unknown option '--jsn' (UNKNOWN_OPTION)`, its code
 * commander's (`commander.unknownOption`) in temporalc's style; a suggestion (`(Did you mean --json?)`) on the next line.
 */
function commanderErrorText(error: CommanderError): string {
  const code = error.code
    .replace(/^commander\./, "")
    .replace(/[A-Z]/g, (upper) => `_${upper}`)
    .toUpperCase();
  return messageErrorLine(code, error.message.replace(/^error: /, ""));
}
