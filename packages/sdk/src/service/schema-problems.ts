import type { FieldProblem } from "./http-error.js";

/** What schemaProblems reads of a JSON Schema error, in the shape ajv reports (its `ErrorObject` is one). */
export interface SchemaError {
  readonly keyword: string;
  /** JSON Pointer to the bad value. */
  readonly instancePath: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

/**
 * Turns JSON Schema errors (ajv's shape) into one problem per bad field, named from `root`
 * (`body.window[1]`, `query.limit`). Branch noise of `oneOf`/`anyOf` is
 * left out since each branch's own errors already say what is wrong.
 */
export function schemaProblems(errors: readonly SchemaError[], root: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === "oneOf" || error.keyword === "anyOf" || error.keyword === "if" || error.keyword === "not") continue;
    let field = (root + pointerToPath(error.instancePath)).replace(/^\./, "");
    let problem = error.message ?? "is invalid";
    if (error.keyword === "required") {
      field = joinField(field, String(error.params.missingProperty));
      problem = "is required";
    } else if (error.keyword === "additionalProperties") {
      field = joinField(field, String(error.params.additionalProperty));
      problem = "is not allowed";
    }
    const key = `${field}\u0000${problem}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ field, problem });
  }
  return problems;
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
