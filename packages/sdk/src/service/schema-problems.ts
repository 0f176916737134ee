import type { FieldProblem } from "./http-error.js";

/** What schemaProblems reads of a JSON Schema error, in the shape ajv reports (its `ErrorObject` is one). */
export interface SchemaError {
  readonly keyword: string;
  /** JSON Pointer to the bad value. */
  readonly instancePath: string;
  /** JSON Pointer, as a URI fragment (`#/properties/zone/oneOf`), to the schema keyword that failed. */
  readonly schemaPath?: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

/** A problem found so far, with the schema keyword that found it, so that a failed `oneOf` can take back its branches' problems. */
interface Found extends FieldProblem {
  readonly schemaPath: string | undefined;
}

/**
 * Turns JSON Schema errors (ajv's shape) into one problem per bad field, named from `root`
 * (`body.window[1]`, `query.limit`). A value that matches none of a `oneOf`'s or `anyOf`'s forms is one
 * problem, not one per form (`"Z12"` is not "must be integer" and "must match pattern" at once). Given `schema`
 * (the one validated), a failed keyword of a schema with a `title` says "must be" and the title
 * (`must be an SWT zone: 0..11 or "Z0".."Z11"`), not the keyword's own words (a pattern, each form's problem);
 * without a title, the forms' problems are joined by "or" (`must be boolean or must be array`).
 */
export function schemaProblems(errors: readonly SchemaError[], root: string, schema?: unknown): FieldProblem[] {
  let found: Found[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === "if" || error.keyword === "not") continue;
    let field = (root + pointerToPath(error.instancePath)).replace(/^\./, "");
    let problem = error.message ?? "is invalid";
    if (error.keyword === "oneOf" || error.keyword === "anyOf") {
      const branchPath = `${error.schemaPath}/`;
      const branches = found.filter((one) => one.schemaPath?.startsWith(branchPath) === true);
      // Forms of one value become one problem. Branches that name other fields (a property one form requires) stand
      // as they came, as do branches without schema paths, which cannot be told apart.
      if (error.schemaPath === undefined || branches.length === 0 || branches.some((one) => one.field !== field)) continue;
      found = found.filter((one) => !branches.includes(one));
      for (const one of branches) seen.delete(`${one.field}\u0000${one.problem}`);
      const title = titleAt(schema, error.schemaPath);
      problem = title === undefined ? branches.map((one) => one.problem).join(" or ") : `must be ${title}`;
    } else if (error.keyword === "required") {
      field = joinField(field, String(error.params.missingProperty));
      problem = "is required";
    } else if (error.keyword === "additionalProperties") {
      field = joinField(field, String(error.params.additionalProperty));
      problem = "is not allowed";
    } else {
      const title = titleAt(schema, error.schemaPath);
      if (title !== undefined) problem = `must be ${title}`;
    }
    const key = `${field}\u0000${problem}`;
    if (seen.has(key)) continue;
    seen.add(key);
    found.push({ field, problem, schemaPath: error.schemaPath });
  }
  return found.map(({ field, problem }) => ({ field, problem }));
}

/** The `title` of the schema holding the keyword at `schemaPath` (`#/properties/zone/oneOf`) in `schema`, if any. */
function titleAt(schema: unknown, schemaPath: string | undefined): string | undefined {
  if (schema === undefined || schemaPath === undefined) return undefined;
  const segments = schemaPath.replace(/^#\/?/, "").split("/").slice(0, -1);
  let at: unknown = schema;
  for (const segment of segments) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<string, unknown>)[segment.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  const title = typeof at === "object" && at !== null ? (at as { title?: unknown }).title : undefined;
  return typeof title === "string" ? title : undefined;
}

function pointerToPath(pointer: string): string {
  if (pointer === "") return "";
  return pointer
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`))
    .join("");
}

function joinField(parent: string, name: string): string {
  return parent === "" ? name : `${parent}.${name}`;
}
