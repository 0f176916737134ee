/**
 * Which mission names can be JavaScript bindings and export names as they
 * are. Mission names match `[A-Za-z_][A-Za-z0-9_]*`, so they are always
 * IdentifierNames; what remains is reserved words and names the generated
 * code itself relies on.
 */

const RESERVED_WORDS = new Set([
  "await",
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "implements",
  "import",
  "in",
  "instanceof",
  "interface",
  "let",
  "new",
  "null",
  "package",
  "private",
  "protected",
  "public",
  "return",
  "static",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "yield",
  // Not reserved words, but strict-mode code cannot bind them.
  "arguments",
  "eval",
]);

/** Globals and imports the generated module uses: a binding with one of these names would shadow it. */
const USED_BY_GENERATED_CODE = new Set([
  "allow",
  // Imported instead of allow when the file has an IANA `@anchor`.
  "allowInTimeZone",
  "defineMission",
  "missions",
  "Object",
  "undefined",
  "NaN",
  "Infinity",
  // The CommonJS wrapper's parameters.
  "require",
  "exports",
  "module",
  "__filename",
  "__dirname",
]);

/** The module-level binding for a mission: its own name when that is safe, else `$name` (mission names never contain `$`). */
export function bindingName(missionName: string): string {
  return RESERVED_WORDS.has(missionName) || USED_BY_GENERATED_CODE.has(missionName) ? `$${missionName}` : missionName;
}

/**
 * Whether a mission gets a named export: a valid, non-reserved identifier
 * that is not one of the module's own exports (`__esModule` is the
 * CommonJS interop marker).
 */
export function isExportable(missionName: string): boolean {
  return !RESERVED_WORDS.has(missionName) && missionName !== "missions" && missionName !== "__esModule";
}

/** An object literal key: bare, except `__proto__`, which as a bare key would set the prototype. */
export function propertyKey(name: string): string {
  return name === "__proto__" ? `["__proto__"]` : name;
}
