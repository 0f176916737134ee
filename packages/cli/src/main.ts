import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { EXIT_USAGE, UsageError } from "./errors.js";

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

function program(): Command {
  const cli = new Command("temporalc")
    .description("Check, compile and run .mission files: temporal permissions for your code.")
    .version(TEMPORALC_VERSION, "-V, --version", "print the temporalc version")
    .helpOption("-h, --help", "show help for temporalc or a command")
    .showSuggestionAfterError()
    .exitOverride();

  cli
    .command("check")
    .description("parse and check mission files, reporting every problem with its location")
    .argument("<files...>", "mission files, or folders to search for *.mission files")
    .addOption(new Option("--format <format>", "how to print diagnostics").choices(["text", "json"]).default("text"))
    .option("--max-warnings <n>", "fail when there are more than n warnings", nonNegativeInteger)
    .addHelpText(
      "after",
      `
Exit status: 0 when no file has an error (and no more than --max-warnings
warnings), 1 when any file has an error, 2 for usage or I/O errors.

Examples:
  $ temporalc check examples/nightly-backup.mission
  $ temporalc check missions/ --max-warnings 0
  $ temporalc check a.mission --format json | jq .summary`,
    )
    .action(async (files: string[], options: { format: "text" | "json"; maxWarnings?: number }) => {
      const { runCheck } = await import("./commands/check.js");
      process.exitCode = await runCheck(files, options);
    });

  return cli;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await program().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander exits 0 for --help and --version; anything else it rejects is a usage error.
      process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
      return;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`temporalc: ${error.message}\n`);
      process.exitCode = EXIT_USAGE;
      return;
    }
    throw error;
  }
}
