import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { HttpError } from "./http-error.js";
import { schemaProblems } from "./schema-problems.js";

/** Checks a body or a query against its schema, coercing query text to the schema's types; throws 400 VALIDATION_FAILED listing every bad field. */
export type RequestValidator = (data: unknown) => void;

export interface RequestValidators {
  body(schema: Record<string, unknown>): RequestValidator;
  query(schema: Record<string, unknown>): RequestValidator;
}

/** One ajv per request part: bodies are JSON and keep their types; query values are text, coerced by the schema. */
export function requestValidators(): RequestValidators {
  const bodyAjv = new Ajv2020({ allErrors: true, strict: true, coerceTypes: false });
  const queryAjv = new Ajv2020({ allErrors: true, strict: true, coerceTypes: true });
  return {
    body(schema) {
      const validate = bodyAjv.compile(schema);
      return (data) => {
        if (!validate(data)) throw validationFailed(validate.errors ?? [], "body");
      };
    },
    query(schema) {
      const validate = queryAjv.compile(schema);
      return (data) => {
        if (!validate(data)) throw validationFailed(validate.errors ?? [], "query");
        const nonFinite = nonFiniteNumbers(data as Record<string, unknown>);
        if (nonFinite !== undefined) throw validationFailed(nonFinite, "query");
      };
    },
  };
}

/**
 * Ajv's coercion reads a query value such as `1e400` as Infinity, which then passes `minimum`/`maximum`;
 * a non-finite number is never a meaningful query value, so it is refused like any other schema violation.
 */
function nonFiniteNumbers(query: Record<string, unknown>): ErrorObject[] | undefined {
  let errors: ErrorObject[] | undefined;
  for (const name in query) {
    const value = query[name];
    if (typeof value === "number" && !Number.isFinite(value)) {
      (errors ??= []).push({ instancePath: `/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`, schemaPath: "#/finite", keyword: "finite", params: {}, message: "must be a finite number" });
    }
  }
  return errors;
}

function validationFailed(errors: readonly ErrorObject[], part: "body" | "query"): HttpError {
  const details = schemaProblems(errors, part);
  return new HttpError(400, "VALIDATION_FAILED", `invalid ${part}: ${details.map((d) => `${d.field} ${d.problem}`).join("; ")}`, { details });
}
