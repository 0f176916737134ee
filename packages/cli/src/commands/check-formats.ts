import { createHash } from "node:crypto";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { DIAGNOSTIC_CODES, docsUrl, type Diagnostic, type DiagnosticCode, type MissionFile, type Severity, type SourceRange } from "@temporal/compiler";
import type { FileProblem } from "../files.js";

/**
 * `temporalc check` reports for CI: SARIF 2.1.0 (code scanning, IDEs) and
 * GitHub workflow commands (annotations on a pull request's diff).
 */

/** One checked file: its diagnostics and, when it parsed, its tree (to name the mission a diagnostic is in). */
export interface CheckedFile {
  path: string;
  diagnostics: Diagnostic[];
  ast?: MissionFile;
}

const INFORMATION_URL = "https://github.com/temporal-permission/temporalc";
const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
/** Results' paths are relative to this base, which `originalUriBaseIds` maps to the folder temporalc ran in. */
const SOURCE_ROOT = "SRCROOT";

const SARIF_LEVELS: Record<Severity, "error" | "warning" | "note"> = { error: "error", warning: "warning", info: "note" };

/**
 * One SARIF log for all files. A path that could not be read or rewritten (`problems`) has no diagnostic to be a result
 * of: it is a tool execution notification, and the run was not successful.
 */
export function toSarif(files: readonly CheckedFile[], problems: readonly FileProblem[], toolVersion: string, cwd: string): object {
  const codes = Object.keys(DIAGNOSTIC_CODES) as DiagnosticCode[];
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "temporalc", version: toolVersion, informationUri: INFORMATION_URL, rules: codes.map(sarifRule) } },
        originalUriBaseIds: { [SOURCE_ROOT]: { uri: directoryUri(cwd) } },
        // Our columns count UTF-16 code units, which is also SARIF's default; said outright for readers.
        columnKind: "utf16CodeUnits",
        results: files.flatMap((file) => sarifResults(file, codes, cwd)),
        ...(problems.length === 0 ? {} : { invocations: [{ executionSuccessful: false, toolExecutionNotifications: problems.map((p) => sarifNotification(p, cwd)) }] }),
      },
    ],
  };
}

/** `descriptor.id` is the problem's code (FILE_NOT_FOUND, ...), as on the text line; the message is the why alone. */
function sarifNotification(problem: FileProblem, cwd: string): object {
  return {
    level: "error",
    message: { text: problem.message },
    descriptor: { id: problem.code },
    locations: [{ physicalLocation: { artifactLocation: sarifArtifact(problem.path, cwd) } }],
  };
}

function sarifRule(code: DiagnosticCode): object {
  const { title, severity } = DIAGNOSTIC_CODES[code];
  const fix = (DIAGNOSTIC_CODES[code] as { fix?: string }).fix;
  return {
    id: code,
    name: ruleName(title),
    shortDescription: { text: title },
    ...(fix === undefined ? {} : { help: { text: `temporalc check --fix ${fix}` } }),
    helpUri: docsUrl(code),
    defaultConfiguration: { level: SARIF_LEVELS[severity] },
  };
}

/** `phase windows never overlap` → `PhaseWindowsNeverOverlap`: SARIF's rule names are identifiers. */
function ruleName(title: string): string {
  return title
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join("");
}

function sarifResults(file: CheckedFile, codes: readonly DiagnosticCode[], cwd: string): object[] {
  const artifactLocation = sarifArtifact(file.path, cwd);
  const fingerprints = new Fingerprints(file.path);
  return file.diagnostics.map((d) => ({
    ruleId: d.code,
    ruleIndex: codes.indexOf(d.code),
    level: SARIF_LEVELS[d.severity],
    message: { text: d.help === undefined ? d.message : `${d.message}\nhelp: ${d.help}` },
    locations: [sarifLocation(artifactLocation, d.range)],
    ...(d.notes === undefined ? {} : { relatedLocations: d.notes.map((note, id) => ({ id, ...sarifLocation(artifactLocation, note.range), message: { text: note.message } })) }),
    partialFingerprints: { "temporalcDiagnostic/v1": fingerprints.next(d, missionAt(file.ast, d.range)) },
    ...(d.fixes === undefined
      ? {}
      : {
          fixes: d.fixes.map((fix) => ({
            description: { text: fix.title },
            artifactChanges: [
              {
                artifactLocation,
                replacements: fix.edits.map((edit) => ({ deletedRegion: sarifRegion(edit.range), insertedContent: { text: edit.newText } })),
              },
            ],
          })),
        }),
  }));
}

function sarifLocation(artifactLocation: object, range: SourceRange): object {
  return { physicalLocation: { artifactLocation, region: sarifRegion(range) } };
}

function sarifRegion(range: SourceRange): object {
  return { startLine: range.start.line, startColumn: range.start.column, endLine: range.end.line, endColumn: range.end.column };
}

/** The name of the mission whose text holds `range`, or "" outside every mission. */
function missionAt(ast: MissionFile | undefined, range: SourceRange): string {
  const offset = range.start.offset;
  return ast?.missions.find((m) => m.range.start.offset <= offset && offset <= m.range.end.offset)?.name.name ?? "";
}

/**
 * Fingerprints that survive edits elsewhere in the file: a hash of the
 * file, the code, the mission and the message with its whitespace
 * normalised, never a line number; repeats of one finding are told apart
 * by their order.
 */
class Fingerprints {
  readonly #seen = new Map<string, number>();

  constructor(readonly path: string) {}

  next(d: Diagnostic, mission: string): string {
    const key = [this.path, d.code, mission, d.message.replace(/\s+/g, " ").trim()].join("\0");
    const occurrence = this.#seen.get(key) ?? 0;
    this.#seen.set(key, occurrence + 1);
    return createHash("sha256").update(`${key}\0${occurrence}`).digest("hex");
  }
}

/** `path` (as the user gave it, relative to `cwd` or absolute) relative to the folder temporalc ran in. */
function fromWorkingFolder(path: string, cwd: string): string {
  return relative(cwd, resolve(cwd, path));
}

/**
 * Whether a path relative to the working folder (`fromWorkingFolder`) is below it: not the folder itself, not up out of
 * it (`..`, though a name such as `..drafts` is below), not on another drive (Windows, where `relative` gives an absolute path).
 */
function isBelow(relativePath: string): boolean {
  const up = relativePath === ".." || relativePath.startsWith(`..${sep}`);
  return relativePath !== "" && !up && !isAbsolute(relativePath);
}

/** A file below the working folder is named relative to SRCROOT, so the log reads the same on every checkout; any other by its absolute URI. */
function sarifArtifact(path: string, cwd: string): { uri: string; uriBaseId?: string } {
  const relativePath = fromWorkingFolder(path, cwd);
  if (isBelow(relativePath)) return { uri: uriPath(relativePath), uriBaseId: SOURCE_ROOT };
  return { uri: pathToFileURL(resolve(cwd, path)).href };
}

function uriPath(relativePath: string): string {
  return relativePath.split(sep).map(encodeURIComponent).join("/");
}

function directoryUri(directory: string): string {
  const href = pathToFileURL(directory).href;
  return href.endsWith("/") ? href : `${href}/`;
}

const GITHUB_COMMANDS: Record<Severity, string> = { error: "error", warning: "warning", info: "notice" };

/**
 * One workflow command per diagnostic:
 * `::error file=a.mission,line=3,col=5,endLine=3,endColumn=9,title=M303::message`; then one per path that could not be
 * read or rewritten, on the file without a line: `::error file=missing.mission::no such file or folder (FILE_NOT_FOUND)`.
 */
export function toGithubAnnotations(files: readonly CheckedFile[], problems: readonly FileProblem[], cwd: string): string {
  let text = "";
  for (const file of files) {
    const path = githubPath(file.path, cwd);
    for (const d of file.diagnostics) {
      const { start, end } = d.range;
      const properties = [`file=${path}`, `line=${start.line}`, `col=${start.column}`, `endLine=${end.line}`, `endColumn=${end.column}`, `title=${d.code}`];
      const message = d.help === undefined ? d.message : `${d.message}\nhelp: ${d.help}`;
      text += `::${GITHUB_COMMANDS[d.severity]} ${properties.map(escapeProperty).join(",")}::${escapeData(message)}\n`;
    }
  }
  for (const problem of problems) text += `::error ${escapeProperty(`file=${githubPath(problem.path, cwd)}`)}::${escapeData(`${problem.message} (${problem.code})`)}\n`;
  return text;
}

/** Relative to the folder temporalc ran in, with `/`: the path GitHub matches against the diff. */
function githubPath(path: string, cwd: string): string {
  return fromWorkingFolder(path, cwd).split(sep).join("/") || path;
}

/** GitHub's rules for a command's message: `%`, CR and LF are percent-encoded. */
function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A property's value also encodes `:` and `,`, which would end it; the `name=` before it stays as it is. */
function escapeProperty(property: string): string {
  const equals = property.indexOf("=");
  return (
    property.slice(0, equals + 1) +
    escapeData(property.slice(equals + 1))
      .replace(/:/g, "%3A")
      .replace(/,/g, "%2C")
  );
}
