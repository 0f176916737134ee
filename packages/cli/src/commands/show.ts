import { readFile } from "node:fs/promises";
import { decodeSource, diagnose } from "@temporal/compiler";
import { requireIsoInstant } from "@temporal/agent-sdk";
import { writeFileDurably } from "@temporal/agent-sdk/node";
import { dialSvg, missionDials, viewerTimeZone, type FileDial } from "@temporal/language-service";
import { EXIT_FAILURE, EXIT_OK, CodedUsageError } from "../errors.js";
import { describeIoError } from "../files.js";
import { renderForTerminal, useColor } from "../terminal.js";
import { renderDial } from "./show-terminal.js";

/**
 * `temporalc show`: when each mission of a file is open, as a 24-hour bar
 * per mission in the terminal, the same dial as JSON, or the playground's
 * SVG (`dialSvg`, byte for byte). The dial is the language service's
 * `missionDials`, whose answers are the runtime's.
 */

export interface ShowOptions {
  /** As written on the command line; read by the SDK's ISO 8601 parser, as `run --at`. */
  at?: string;
  svg?: string;
  mission?: string;
  json: boolean;
}

export type ShowUsageCode = "FILE_NOT_FOUND" | "FILE_UNREADABLE" | "INVALID_TIME" | "MISSION_NOT_FOUND" | "WRITE_FAILED";

/** A usage problem of `temporalc show` (exit 2). */
export class ShowUsageError extends CodedUsageError<ShowUsageCode> {}

export async function runShow(file: string, options: ShowOptions): Promise<number> {
  const at = options.at === undefined ? Date.now() : readAt(options.at);
  // As `check` reads files: not text (M106) or not UTF-8 (M107) is an error of the file, never parsed.
  const { text: source, diagnostics: undecodable } = decodeSource(await readSource(file), file);
  const { model, diagnostics } = undecodable.length > 0 ? { model: undefined, diagnostics: undecodable } : diagnose(source, file);
  // Warnings are shown and the dial drawn; an error (an unknown zone, a bound out of range) leaves nothing sure to draw.
  process.stderr.write(renderForTerminal(diagnostics, source, process.stderr));
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const whole = errors === 0 && model !== undefined ? missionDials(model, { at, viewerTimeZone: viewerTimeZone() }) : null;
  if (whole === null) {
    process.stderr.write(`temporalc: ${file} has ${errors === 1 ? "an error" : `${errors} errors`}; fix ${errors === 1 ? "it" : "them"} to see its dial (MISSION_FILE_INVALID)\n`);
    return EXIT_FAILURE;
  }
  const dial = selectMission(whole, options.mission);
  if (options.svg !== undefined) await writeSvg(options.svg, dialSvg(dial));
  process.stdout.write(options.json ? `${JSON.stringify({ file, dial }, null, 2)}\n` : renderDial(dial, { color: useColor(process.stdout), file }));
  return EXIT_OK;
}

/** `--at`, by the SDK's ISO 8601 rules (docs/phase.md#writing-an-instant), as `temporalc run --at`. */
function readAt(text: string): number {
  try {
    return requireIsoInstant(text);
  } catch (error) {
    throw new ShowUsageError("INVALID_TIME", `--at ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function readSource(file: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new ShowUsageError("FILE_NOT_FOUND", `${file} does not exist`);
    throw new ShowUsageError("FILE_UNREADABLE", `cannot read ${file}: ${describeIoError(error)}`);
  }
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
