import type { SourceRange } from "./ast.js";
import { LANGUAGE_VERSION, LANGUAGE_VERSION_TEXT } from "./version.js";

export type Severity = "error" | "warning" | "info";

export interface DiagnosticNote {
  message: string;
  range: SourceRange;
}

/** Replace the text in `range` (offsets are what count) with `newText`; an empty range inserts. */
export interface TextEdit {
  range: SourceRange;
  newText: string;
}

/**
 * A change that makes a diagnostic go away. Edits of one fix never overlap;
 * a diagnostic lists its fixes best first, and only a diagnostic with exactly
 * one fix is fixed without asking (`applyFixes`, `temporalc check --fix`).
 */
export interface Fix {
  title: string;
  edits: TextEdit[];
}

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  file: string;
  range: SourceRange;
  help?: string;
  notes?: DiagnosticNote[];
  fixes?: Fix[];
}

/** The fix that writes `newText` in place of `range`. */
export function replacement(range: SourceRange, newText: string): Fix {
  return { title: `write \`${newText}\``, edits: [{ range, newText }] };
}

/**
 * A code's entry in the table. `message` (and `help`, when it does not
 * depend on where the diagnostic is raised) is a template: a constant, or a
 * function of the code's named parameters, so a call site passes only the
 * code, the range and typed parameters. `fix` says what the code's structured
 * fix does, for codes that have one.
 */
export interface DiagnosticDefinition {
  severity: Severity;
  title: string;
  message: string | ((params: never) => string);
  help?: string | ((params: never) => string);
  fix?: string;
}

/** Shows source text in a message: short, on one line, control characters escaped. */
export function quote(text: string): string {
  const chars = [...text];
  const shown = chars.length > 24 ? `${chars.slice(0, 24).join("")}…` : text;
  const escaped = shown.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufffd]/gu, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);
  return `\`${escaped}\``;
}

/** Past this many errors a file is more likely junk than a mission; the rest are summarised. */
const MAX_REPORTED_ERRORS = 100;
/** Receipt scopes are `missions.<name>.v1`, at most 128 characters in all. */
export const MAX_ANCHORING_NAME_LENGTH = 128 - "missions.".length - ".v1".length;
/** No real grid's hourly carbon intensity reaches this (gCO2eq/kWh). */
export const MAX_REALISTIC_CARBON = 1200;
/** Witness networks are a handful to a few dozen witnesses; a larger quorum is almost surely a typo. */
export const MAX_REALISTIC_QUORUM = 100;

const ANCHOR_FORMS = "anchor is an SWT zone, Z0 to Z11, or an IANA time zone such as `Europe/Paris`";
const TOO_MANY_ERRORS_HELP = "fix the errors above first; this many usually means the file is not a mission file";

/** Why a mission has no window to ZTT-sign in (M510). */
type ZttWindowProblem = "no window" | "several windows" | "time zone";

/** Why a quorum is invalid (M508). */
type QuorumProblem = "not positive" | "fraction" | "too large";

/** `repeated`: the same requirement again; otherwise a looser one. Shared by M402 and M411. */
function ineffectiveRequirement(p: { requirement: string; strictest: string; repeated: boolean }): string {
  return p.repeated ? `\`${p.requirement}\` repeats \`${p.strictest}\`: the repeat has no effect` : `\`${p.requirement}\` has no effect: the stricter \`${p.strictest}\` also applies`;
}

/**
 * Every diagnostic the compiler can report. Codes are stable: once published
 * a code keeps its meaning, so tools and docs may refer to it.
 * M1xx syntax, M2xx directives, M3xx phase, M4xx carbon and HS-Bloch,
 * M5xx mission structure.
 */
export const DIAGNOSTIC_CODES = {
  M100: {
    severity: "error",
    title: "unexpected character",
    message: (p: { text: string }) => `unexpected ${[...p.text].length > 1 ? "characters" : "character"} ${quote(p.text)}`,
    help: "names use ASCII letters, digits and `_`; comments start with `//` or `/*`",
  },
  M101: { severity: "error", title: "unterminated block comment", message: "unterminated block comment", help: "close the comment with `*/`" },
  M102: {
    severity: "error",
    title: "syntax error",
    message: (p: { expected: string; found: string }) => `expected ${p.expected}, found ${p.found}`,
    fix: "replaces a misspelt keyword with the one expected, or adds a missing `}` at the end of the file",
  },
  M103: {
    severity: "error",
    title: "invalid number",
    message: (p: { what: "version" | "number"; text: string }) => `invalid ${p.what} \`${p.text}\``,
    help: (p: { what: "version" | "number" }) =>
      p.what === "version" ? "write the version as v<major>[.<minor>[.<patch>]], such as v4.6.2" : "write numbers as decimal digits with an optional fraction, such as 12 or 12.5",
  },
  M104: { severity: "error", title: "directive after a mission", message: "directives must come before the first mission" },
  M105: {
    severity: "info",
    title: "too many errors",
    message: (p: { hidden: number } | { syntaxErrors: number }) => ("hidden" in p ? `${p.hidden} more errors not shown` : `stopped parsing after ${p.syntaxErrors} syntax errors`),
    help: TOO_MANY_ERRORS_HELP,
  },
  M106: {
    severity: "error",
    title: "not a text file",
    message: "not a text file",
    help: "temporalc reads mission files as UTF-8 text; this one has NUL bytes or is mostly not UTF-8",
  },
  M107: {
    severity: "error",
    title: "invalid UTF-8",
    message: (p: { hex: string; byteOffset: number }) => `invalid UTF-8: byte 0x${p.hex} at byte offset ${p.byteOffset}`,
    help: "save the file as UTF-8; text in another encoding (such as Latin-1) must be converted, e.g. with iconv",
  },
  M108: {
    severity: "error",
    title: "number too large",
    message: (p: { text: string }) => `the number \`${p.text.slice(0, 20)}…\`, ${p.text.length} characters long, is too large to represent`,
    help: "no phase, carbon or HS-Bloch threshold needs more than a few digits; write the number you mean",
  },
  M200: {
    severity: "error",
    title: "unsupported language version",
    message: (p: { raw: string }) => `this compiler implements the mission language ${LANGUAGE_VERSION_TEXT}, not \`${p.raw}\``,
    help: `versions of another major are not compatible; write \`@temporal ${LANGUAGE_VERSION_TEXT}\` if the file is valid v${LANGUAGE_VERSION.major}`,
  },
  M201: {
    severity: "warning",
    title: "newer language version",
    message: (p: { raw: string }) => `\`${p.raw}\` is newer than this compiler's ${LANGUAGE_VERSION_TEXT}`,
    help: "features added after this version are reported as errors; update temporalc",
  },
  M202: {
    severity: "warning",
    title: "missing version directive",
    message: `no \`@temporal\` directive: assuming ${LANGUAGE_VERSION_TEXT}`,
    help: `start the file with \`@temporal ${LANGUAGE_VERSION_TEXT}\``,
    fix: "inserts `@temporal <version>` as the first line",
  },
  M203: { severity: "error", title: "duplicate directive", message: (p: { directive: string }) => `\`${p.directive}\` may appear only once` },
  M204: {
    severity: "error",
    title: "unknown zone",
    message: (p: { zone: string }) => `unknown zone \`${p.zone}\``,
    help: (p: { suggestion: string | undefined }) =>
      p.suggestion === undefined ? "zones are Z0 to Z11: zone n reads the phase at UTC + 2n hours" : `did you mean \`${p.suggestion}\`? Zones are Z0 to Z11`,
    fix: "replaces the zone with the closest of Z0 to Z11, when one is close",
  },
  M205: {
    severity: "error",
    title: "unknown directive",
    message: (p: { directive: string }) => `unknown directive \`${p.directive}\``,
    help: (p: { suggestion: string | undefined }) => (p.suggestion === undefined ? "the directives are `@temporal v<version>` and `@anchor Z<n>`" : `did you mean \`${p.suggestion}\`?`),
    fix: "replaces a misspelt directive with `@temporal` or `@anchor`",
  },
  M206: {
    severity: "error",
    title: "unknown time zone",
    message: (p: { timeZone: string }) => `unknown time zone \`${p.timeZone}\``,
    help: (p: { suggestion: string | undefined }) => (p.suggestion === undefined ? `an ${ANCHOR_FORMS}` : `did you mean \`${p.suggestion}\`? An ${ANCHOR_FORMS}`),
    fix: "replaces the name with the closest IANA time zone or SWT zone, when only one is that close",
  },
  M207: {
    severity: "warning",
    title: "time zone in another letter case",
    message: (p: { timeZone: string; listed: string }) => `\`${p.timeZone}\` is spelt \`${p.listed}\` in the IANA time-zone database`,
    help: "engines accept any letter case, but tools and people search for the listed spelling",
    fix: "writes the name as the IANA time-zone database spells it",
  },
  M208: {
    severity: "info",
    title: "POSIX-style Etc/GMT offset",
    message: (p: { timeZone: string; offset: string }) => `\`${p.timeZone}\` is ${p.offset}: in \`Etc/GMT\` names the sign is the opposite of the offset's (POSIX style)`,
    help: "if you meant the other side of UTC, flip the sign; an SWT zone, Z0 to Z11, says the offset plainly",
  },
  M300: {
    severity: "error",
    title: "phase bound out of range",
    message: (p: { bound: string }) => `phase bound ${p.bound} is outside 0 to 360 degrees`,
    help: "a window [start, end] with start > end wraps through 0, such as [300, 30]",
    fix: "writes the same angle within 0 to 360 (400 becomes 40, -30 becomes 330)",
  },
  M301: {
    severity: "error",
    title: "zero-width phase window",
    message: (p: { window: string }) => `the window ${p.window} has zero width`,
    help: "give two different bounds; [0, 360] is always open and [a, b] with a > b wraps through 0",
  },
  M302: {
    severity: "warning",
    title: "phase window always open",
    message: (p: { window: string }) => `the window ${p.window} is always open: this requirement has no effect`,
    help: "remove it, or narrow the window",
  },
  M303: {
    severity: "error",
    title: "phase windows never overlap",
    message: (p: { window: string; others: string; together: boolean; mission: string }) =>
      `the phase window ${p.window} never overlaps ${p.others}${p.together ? " together" : ""}: mission \`${p.mission}\` can never be ALLOW`,
    help: "every `require phase` must hold at once; widen a window or remove one",
  },
  M304: {
    severity: "error",
    title: "invalid clock time",
    message: (p: { text: string }) => `\`${p.text}\` is not a clock time`,
    help: (p: { padded: string | undefined }) =>
      p.padded === undefined
        ? "write HH:MM or HH:MM:SS with two digits each: hours 00 to 23 (or 24:00, the end of the day), minutes and seconds 00 to 59"
        : `did you mean \`${p.padded}\`? Clock times have two digits a field`,
    fix: "pads a one-digit field with a zero (`9:30` becomes `09:30`)",
  },
  M305: {
    severity: "warning",
    title: "window edge in a daylight-saving change",
    message: (p: { verb: "opens" | "closes"; written: string; shift: "gap" | "overlap"; timeZone: string; from: string; to: string; firstDate: string; thatDay: string }) =>
      `the window ${p.verb} at ${p.written}, which ${p.shift === "gap" ? "does not exist" : "happens twice"} in ${p.timeZone} on the day clocks go ${
        p.shift === "gap" ? `forward from ${p.from} to ${p.to}` : `back from ${p.to} to ${p.from}`
      } (first on ${p.firstDate}): that day ${p.thatDay}`,
    help: (p: { from: string; to: string; horizon: string }) =>
      `move the bound out of ${p.from}–${p.to}, or anchor the file to an SWT zone (no daylight saving); changes are looked for from ${p.horizon}`,
  },
  M400: {
    severity: "error",
    title: "carbon threshold not positive",
    message: (p: { threshold: string }) => `the carbon threshold must be greater than 0 gCO2eq/kWh, not ${p.threshold}`,
  },
  M401: {
    severity: "warning",
    title: "carbon threshold unrealistically high",
    message: (p: { threshold: string }) => `${p.threshold} gCO2eq/kWh is above any real grid's hourly intensity: this requirement always holds`,
    help: `thresholds are usually between 50 and ${MAX_REALISTIC_CARBON} gCO2eq/kWh`,
  },
  M402: { severity: "warning", title: "several carbon requirements", message: ineffectiveRequirement, help: "keep one requirement per quantity" },
  M410: {
    severity: "error",
    title: "HS-Bloch threshold out of range",
    message: (p: { threshold: string }) => `the HS-Bloch threshold ${p.threshold} is outside 0 to 1`,
  },
  M411: { severity: "warning", title: "several HS-Bloch requirements", message: ineffectiveRequirement, help: "keep one requirement per quantity" },
  M412: {
    severity: "error",
    title: "HS-Bloch requirement never holds",
    message: "`hs_bloch > 1` never holds: HS-Bloch scores are at most 1",
    help: "write `hs_bloch >= 1` to require a perfect score",
    fix: "writes `hs_bloch >= 1` for `hs_bloch > 1`, requiring a perfect score (not when a comment is inside the requirement)",
  },
  M500: {
    severity: "error",
    title: "duplicate mission name",
    message: (p: { mission: string }) => `a mission named \`${p.mission}\` is already declared`,
    help: "mission names must be unique in a file",
  },
  M501: {
    severity: "error",
    title: "duplicate handler",
    message: (p: { mission: string; verdict: string }) => `mission \`${p.mission}\` already has an \`on ${p.verdict}\` block`,
    help: "merge the two blocks into one",
  },
  M502: {
    severity: "warning",
    title: "mission without on ALLOW",
    message: (p: { mission: string }) => `mission \`${p.mission}\` has no \`on ALLOW\` block: nothing runs when it is allowed`,
    help: "add `on ALLOW { execute <task> }`",
  },
  M503: { severity: "warning", title: "task executed twice", message: (p: { task: string }) => `task \`${p.task}\` already runs in this block` },
  M504: {
    severity: "warning",
    title: "anchor written twice",
    message: "this block already anchors a receipt",
    help: "each anchor issues a separate receipt of the same outcome; keep one",
  },
  M505: { severity: "error", title: "no mission", message: "no mission in this file", help: "declare one with `mission <name> { ... }`" },
  M506: {
    severity: "error",
    title: "mission name too long for a receipt",
    message: (p: { mission: string }) =>
      `the name of mission \`${p.mission.slice(0, 20)}…\` is ${p.mission.length} characters long; a mission that anchors receipts may have at most ${MAX_ANCHORING_NAME_LENGTH}`,
    help: "receipts name their mission in the scope `missions.<name>.v1`, which is limited to 128 characters; shorten the name",
  },
  M507: {
    severity: "error",
    title: "mission names differ only in case",
    message: (p: { first: string; second: string }) =>
      `missions \`${p.first}\` and \`${p.second}\` differ only in case, so their receipts would share the scope \`missions.${p.first.toLowerCase()}.v1\``,
    help: "rename one of them",
  },
  M508: {
    severity: "error",
    title: "invalid quorum",
    message: (p: { quorum: string; problem: QuorumProblem }) =>
      `the quorum ${p.quorum} ${p.problem === "not positive" ? "is not positive" : p.problem === "fraction" ? "is not a whole number" : "is too large to count exactly"}: it counts witness cosignatures`,
    help: (p: { quorum: string; problem: QuorumProblem; rounded: string | undefined }) =>
      p.problem === "not positive"
        ? "write `anchor TSAE -> clockchain` to anchor without waiting for witnesses, or a quorum of 1 or more"
        : p.problem === "fraction"
          ? `cosignatures are counted in whole numbers${p.rounded === undefined ? "" : `: at least ${p.quorum} means at least ${p.rounded}`}`
          : `a quorum is a whole number from 1 to ${Number.MAX_SAFE_INTEGER}, and in practice a few witnesses`,
    fix: "removes a quorum of 0 or less, leaving a plain anchor (not when a comment is inside the statement); rounds a fraction up (at least 2.5 cosignatures means at least 3)",
  },
  M509: {
    severity: "warning",
    title: "quorum unrealistically high",
    message: (p: { quorum: string }) => `a quorum of ${p.quorum} witness cosignatures is more than any witness network has: the run fails unless that many witnesses are configured`,
    help: `a quorum is usually a majority of a few witnesses, such as 3 of 4; more than ${MAX_REALISTIC_QUORUM} is almost surely a typo`,
  },
  M510: {
    severity: "error",
    title: "no window to sign in",
    message: (p: { mission: string; problem: ZttWindowProblem; timeZone: string | null; windows: number }) =>
      p.problem === "no window"
        ? `mission \`${p.mission}\` has no phase window to ZTT-sign its receipt in`
        : p.problem === "several windows"
          ? `mission \`${p.mission}\` has ${p.windows} phase windows, and a ZTT certificate names one`
          : `a ZTT certificate names an SWT zone, and mission \`${p.mission}\`'s windows are on ${p.timeZone}'s local clock`,
    help: (p: { problem: ZttWindowProblem }) =>
      p.problem === "no window"
        ? "add the window its receipts may be signed in (`require phase [a, b]`), or remove `signed ZTT`"
        : p.problem === "several windows"
          ? "require the one window its receipts are signed in, or remove `signed ZTT`"
          : "anchor the file to an SWT zone (`@anchor Z<n>`), or remove `signed ZTT`",
  },
  M511: {
    severity: "error",
    title: "ZTT signing when denied",
    message: "a denied run may be outside the mission's window, where no ZTT signature can be made",
    help: "sign in `on ALLOW`, which runs only inside the window; a denied run's receipt is signed by the authority's key as usual",
    fix: "removes `signed ZTT` (not when a comment is inside the statement)",
  },
  M512: {
    severity: "error",
    title: "anchor clause repeated",
    message: (p: { clause: "signed ZTT" | "quorum" }) => `\`${p.clause}\` is written twice in this anchor`,
    help: "write each clause once",
    fix: "removes the repeat (not when a comment is inside the statement, or when two quorums differ)",
  },
  M513: {
    severity: "error",
    title: "anchor clauses out of order",
    message: "`signed ZTT` comes before `quorum`",
    help: "write `anchor TSAE -> clockchain signed ZTT quorum <n>`: the receipt is signed when it is issued, then anchored, then witnessed",
    fix: "writes the clauses in order (not when a comment is inside the statement, or when two quorums differ)",
  },
} as const satisfies Record<string, DiagnosticDefinition>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/**
 * The anchor of a code's section in docs/diagnostics.md, as GitHub makes it
 * from the heading `## M303: phase windows never overlap (error)`.
 */
export function docsAnchor(code: DiagnosticCode): string {
  const { title, severity } = DIAGNOSTIC_CODES[code];
  return `${code}: ${title} (${severity})`
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replace(/ /g, "-");
}

/** docs/diagnostics.md on the default branch: where `temporalc check --format sarif` and the language service link a code. */
export const DIAGNOSTICS_DOCS_URL = "https://github.com/temporal-permission/temporalc/blob/main/docs/diagnostics.md";

/** The link to a code's section in docs/diagnostics.md. */
export function docsUrl(code: DiagnosticCode): string {
  return `${DIAGNOSTICS_DOCS_URL}#${docsAnchor(code)}`;
}

type Definition<C extends DiagnosticCode> = (typeof DIAGNOSTIC_CODES)[C];
type TemplateParams<T> = T extends (params: infer P) => string ? P : unknown;

/** The named parameters a code's message and help templates read; `{}` for a constant text. */
export type DiagnosticParams<C extends DiagnosticCode> = TemplateParams<Definition<C>["message"]> & TemplateParams<Definition<C> extends { help: infer H } ? H : undefined>;

/** What a call site adds besides the template's parameters; `help` only for codes whose help is not in the table. */
export type DiagnosticDetails<C extends DiagnosticCode = DiagnosticCode> = {
  notes?: DiagnosticNote[];
  fixes?: Fix[];
} & (Definition<C> extends { help: unknown } ? { help?: never } : { help?: string });

function fill(template: string | ((params: never) => string), params: unknown): string {
  return typeof template === "string" ? template : template(params as never);
}

/** The diagnostic `code` at `range`, its message and help made from the table's templates and `params`. */
export function diagnostic<C extends DiagnosticCode>(code: C, file: string, range: SourceRange, params: DiagnosticParams<C>, details: DiagnosticDetails<C> = {}): Diagnostic {
  const definition: DiagnosticDefinition = DIAGNOSTIC_CODES[code];
  const result: Diagnostic = { code, severity: definition.severity, message: fill(definition.message, params), file, range };
  const help = definition.help === undefined ? details.help : fill(definition.help, params);
  if (help !== undefined) result.help = help;
  if (details.notes !== undefined && details.notes.length > 0) result.notes = details.notes;
  if (details.fixes !== undefined && details.fixes.length > 0) result.fixes = details.fixes;
  return result;
}

/** Orders diagnostics by position, then code, so output never depends on discovery order. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return a.range.start.offset - b.range.start.offset || a.range.end.offset - b.range.end.offset || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/**
 * Keeps the first errors of a sorted list and summarises the rest in one
 * M105; `uncounted` errors were found but never made into diagnostics.
 */
export function limitErrors(sorted: Diagnostic[], file: string, uncounted = 0): Diagnostic[] {
  let listed = 0;
  const kept: Diagnostic[] = [];
  let lastKept: Diagnostic | undefined;
  for (const d of sorted) {
    if (d.severity === "error") {
      if (++listed > MAX_REPORTED_ERRORS) continue;
      lastKept = d;
    }
    kept.push(d);
  }
  const hidden = Math.max(0, listed - MAX_REPORTED_ERRORS) + uncounted;
  if (lastKept !== undefined && hidden > 0) {
    kept.push(diagnostic("M105", file, lastKept.range, { hidden }));
  }
  return kept.sort(compareDiagnostics);
}
