import { HttpError } from "./http-error.js";
import * as bodyValidators from "./request-validators.body.generated.js";
import * as queryValidators from "./request-validators.query.generated.js";
import { schemaProblems, type SchemaError } from "./schema-problems.js";
import { REQUESTS } from "./schemas.js";

/** Checks a body or a query against its schema, coercing query text to the schema's types; throws 400 VALIDATION_FAILED listing every bad field. */
export type RequestValidator = (data: unknown) => void;

export interface RequestValidators {
  body(schema: Record<string, unknown>): RequestValidator;
  query(schema: Record<string, unknown>): RequestValidator;
}

/** A validator as ajv's standalone code makes it: true or false, with the errors of the last call on itself. */
interface CompiledValidator {
  (data: unknown): boolean;
  errors?: readonly SchemaError[] | null;
}

type Compiled = Readonly<Record<string, CompiledValidator | undefined>>;

/** The name in REQUESTS of each schema, which names its generated validator. */
const REQUEST_NAMES = new Map<unknown, string>(Object.entries(REQUESTS).map(([name, schema]) => [schema, name]));

/**
 * The validators of the request schemas, generated at build time from REQUESTS by ajv (scripts/generate-request-validators.mjs),
 * so requests are checked exactly as ajv checks them with no validator library at run time.
 * Bodies are JSON and keep their types; query values are text, coerced by the schema.
 */
export function requestValidators(): RequestValidators {
  return {
    body(schema) {
      const validate = compiled(bodyValidators, schema, "body");
      return (data) => {
        if (!validate(data)) throw validationFailed(validate.errors ?? [], "body", schema);
      };
    },
    query(schema) {
      const validate = compiled(queryValidators, schema, "query");
      return (data) => {
        if (!validate(data)) throw validationFailed(validate.errors ?? [], "query", schema);
        const nonFinite = nonFiniteNumbers(data as Record<string, unknown>);
        if (nonFinite !== undefined) throw validationFailed(nonFinite, "query", schema);
      };
    },
  };
}

function compiled(validators: Compiled, schema: Record<string, unknown>, part: "body" | "query"): CompiledValidator {
  const name = REQUEST_NAMES.get(schema);
  const validate = name === undefined ? undefined : validators[name];
  // Only a route table edited without regenerating gets here: the test of the generated files says how to regenerate them.
  if (validate === undefined)
    throw new Error(`no generated ${part} validator for ${name === undefined ? "a schema outside REQUESTS" : `REQUESTS.${name}`}; run packages/sdk/scripts/generate-request-validators.mjs`);
  return validate;
}

/**
 * Ajv's coercion reads a query value such as `1e400` as Infinity, which then passes `minimum`/`maximum`;
 * a non-finite number is never a meaningful query value, so it is refused like any other schema violation.
 */
function nonFiniteNumbers(query: Record<string, unknown>): SchemaError[] | undefined {
  let errors: SchemaError[] | undefined;
  for (const name in query) {
    const value = query[name];
    if (typeof value === "number" && !Number.isFinite(value)) {
      (errors ??= []).push({ instancePath: `/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`, keyword: "finite", params: {}, message: "must be a finite number" });
    }
  }
  return errors;
}

function validationFailed(errors: readonly SchemaError[], part: "body" | "query", schema: Record<string, unknown>): HttpError {
  const details = schemaProblems(errors, part, schema);
  return new HttpError(400, "VALIDATION_FAILED", `invalid ${part}: ${details.map((d) => `${d.field} ${d.problem}`).join("; ")}`, { details });
}
