import { diagnose } from "@temporal/compiler";
import { describeIoError, writeFileDurably } from "@temporal/agent-sdk/node";
import { dialSvg, missionDials, viewerTimeZone, type FileDial } from "@temporal/language-service";
import { readAtOption } from "../at-option.js";
import { EXIT_OK, UsageError, errorLine, messageOf } from "../errors.js";
import { readMissionFile } from "../files.js";
import { renderForTerminal, useColor } from "../terminal.js";
import { MissionFileError, classifyFailure, failureJson } from "./failure.js";
import { renderDial } from "./show-terminal.js";

/**
 * `temporalc show`: when each mission of a file is open, as a 24-hour bar
 * per mission in the terminal, the same dial as JSON, or the playground's
 * SVG (`dialSvg`, byte for byte). The dial is the language service's
 * `missionDials`, whose answers are the runtime's.
 */

export interface ShowOptions {
  /** As written on the command line; read as `run --at` (at-option.ts). */
  at?: string;
  svg?: string;
  mission?: string;
  json: boolean;
}

/** A usage problem of `temporalc show` itself (exit 2); reading the file and `--at` are shared with `run` (FILE_NOT_FOUND, FILE_UNREADABLE, INVALID_TIME). */
class ShowUsageError extends UsageError<"MISSION_NOT_FOUND" | "WRITE_FAILED"> {}

/**
 * Draws the dial; every way of stopping is one line on stderr ending with its code (`errorLine`) and, with `--json`,
 * the same as one object on stdout, `{ "error": { code, message, path?, diagnostics? } }` as `temporalc run --json` reports
 * a stop: `message` is the line without `temporalc: ` and the code.
 */
export async function runShow(file: string, options: ShowOptions): Promise<number> {
  try {
    return await drawDial(file, options);
  } catch (error) {
    const failure = classifyFailure(error);
    if (options.json) process.stdout.write(`${JSON.stringify({ error: failure === undefined ? { code: "INTERNAL_ERROR", message: messageOf(error) } : failureJson(failure) }, null, 2)}\n`);
    // A bug in temporalc: main() says so on stderr.
    if (failure === undefined) throw error;
    process.stderr.write(errorLine(failure.code, failure.message));
    return failure.exit;
  }
}

async function drawDial(file: string, options: ShowOptions): Promise<number> {
  const at = options.at === undefined ? Date.now() : readAtOption(options.at);
  const { text: source, undecodable } = await readMissionFile(file);
  const { model, diagnostics } = undecodable.length > 0 ? { model: undefined, diagnostics: undecodable } : diagnose(source, file);
  // Warnings are shown and the dial drawn; an error (an unknown zone, a bound out of range) leaves nothing sure to draw.
  process.stderr.write(renderForTerminal(diagnostics, source, process.stderr));
  const errors = diagnostics.filter((d) => d.severity === "error");
  const whole = errors.length === 0 && model !== undefined ? missionDials(model, { at, viewerTimeZone: viewerTimeZone() }) : null;
  if (whole === null) {
    const n = errors.length;
    throw new MissionFileError(`${file} has ${n === 1 ? "an error" : `${n} errors`}; fix ${n === 1 ? "it" : "them"} to see its dial`, errors);
  }
  const dial = selectMission(whole, options.mission);
  if (options.svg !== undefined) await writeSvg(options.svg, dialSvg(dial));
  process.stdout.write(options.json ? `${JSON.stringify({ file, dial }, null, 2)}\n` : renderDial(dial, { color: useColor(process.stdout), file }));
  return EXIT_OK;
}

function selectMission(dial: FileDial, wanted: string | undefined): FileDial {
  if (wanted === undefined) return dial;
  const missions = dial.missions.filter((m) => m.name === wanted);
  if (missions.length === 0) {
    const names = dial.missions.map((m) => m.name).join(", ");
    throw new ShowUsageError("MISSION_NOT_FOUND", `no mission named ${JSON.stringify(wanted)}; ${names === "" ? "this file has none" : `this file has ${names}`}`);
  }
  return { ...dial, missions };
}

/** The SVG replaces the file at once (a temporary file renamed over it), so a viewer never reads half of it. */
async function writeSvg(path: string, svg: string): Promise<void> {
  try {
    await writeFileDurably(path, svg, { mode: 0o666 });
  } catch (error) {
    throw new ShowUsageError("WRITE_FAILED", `cannot write ${path}: ${describeIoError(error)}`);
  }
}
