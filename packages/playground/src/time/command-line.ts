import type { PlaygroundSettings } from "../state.js";

/**
 * The `temporalc` command lines that do on a terminal what the time panel
 * shows: `show` draws the same dial, `run` decides and runs at the same
 * instant with the same measures. The flags are `temporalc run`'s and
 * `temporalc show`'s (packages/cli/src/main.ts): `--at` an ISO 8601 instant,
 * `--carbon` and `--hs-bloch` plain decimals (the CLI refuses exponents).
 */
export interface CommandLines {
  readonly show: string;
  readonly run: string;
}

/** Where the playground's stand-in tasks would come from on a terminal: `run` needs a module exporting them. */
export const TASKS_MODULE = "tasks.mjs";

export function commandLines(filename: string, settings: PlaygroundSettings, options: { readonly executesTasks: boolean }): CommandLines {
  const file = shellWord(filename.startsWith("-") ? `./${filename}` : filename);
  const at = settings.at === null ? [] : ["--at", isoInstant(settings.at)];
  const measures = [...(settings.carbon === null ? [] : ["--carbon", decimal(settings.carbon)]), ...(settings.hsBloch === null ? [] : ["--hs-bloch", decimal(settings.hsBloch)])];
  const tasks = options.executesTasks ? ["--tasks", TASKS_MODULE] : [];
  return {
    show: ["temporalc", "show", file, ...at].join(" "),
    run: ["temporalc", "run", file, ...tasks, ...at, ...measures].join(" "),
  };
}

/** An instant as `run --at` reads it: UTC, without the milliseconds when there are none. */
export function isoInstant(unixMs: number): string {
  return new Date(unixMs).toISOString().replace(/\.000Z$/, "Z");
}

// Characters a POSIX shell never treats specially in a word (no quoting needed).
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `text` as one POSIX shell word: plain when safe, otherwise single-quoted (a quote inside becomes '\''). */
export function shellWord(text: string): string {
  if (PLAIN_WORD.test(text)) return text;
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A non-negative finite number as a plain decimal that reads back as the same
 * number: `String()` but with an exponent (`1e-7`, `1e+21`) written out, since
 * `--carbon` and `--hs-bloch` take digits and a point only.
 */
export function decimal(value: number): string {
  const text = String(value);
  const match = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (match === null) return text;
  const digits = match[1]! + (match[2] ?? "");
  const point = 1 + Number(match[3]);
  if (point <= 0) return `0.${"0".repeat(-point)}${digits}`;
  return digits.length <= point ? digits + "0".repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
}
