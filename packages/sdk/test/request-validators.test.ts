/**
 * The service pipeline validates requests with ajv's standalone code, generated at build time from REQUESTS
 * (scripts/generate-request-validators.mjs). The generated files must be what the schemas give today, and
 * must accept, refuse and describe every request exactly as ajv itself does, which is what the service ran before.
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types; it returns the two files' text.
import { requestValidatorsSource } from "../scripts/request-validators-source.mjs";
import { HttpError, REQUESTS, ROUTES, schemaProblems } from "../src/service/index.js";
import { requestValidators, type RequestValidator } from "../src/service/request-validation.js";

type Part = "body" | "query";
type Schema = Record<string, unknown>;

describe("the generated request validators", () => {
  it("are what the request schemas give now (regenerate: npm run build, then node packages/sdk/scripts/generate-request-validators.mjs)", () => {
    const sources = requestValidatorsSource(ROUTES, REQUESTS) as Record<Part, string>;
    for (const part of ["body", "query"] as const) {
      const path = new URL(`../src/service/request-validators.${part}.generated.ts`, import.meta.url);
      expect(readFileSync(path, "utf8"), `request-validators.${part}.generated.ts`).toBe(sources[part]);
    }
  });

  it("are generated the same way twice (the output is deterministic)", () => {
    expect(requestValidatorsSource(ROUTES, REQUESTS)).toEqual(requestValidatorsSource(ROUTES, REQUESTS));
  });

  it("import nothing, so the SDK needs no validator at run time", () => {
    for (const part of ["body", "query"]) {
      const text = readFileSync(new URL(`../src/service/request-validators.${part}.generated.ts`, import.meta.url), "utf8");
      expect(text).not.toMatch(/\brequire\s*\(|^\s*import\b|\bimport\s*\(/m);
    }
  });
});

/** What the service ran before the validators were generated: ajv compiling each schema at start-up. */
function ajvValidator(schema: Schema, part: Part): RequestValidator {
  const validate = new Ajv2020({ allErrors: true, strict: true, coerceTypes: part === "query" }).compile(schema);
  return (data) => {
    if (!validate(data)) throw failed(validate.errors ?? [], part, schema);
    if (part === "query") {
      const nonFinite = Object.entries(data as Record<string, unknown>).filter(([, value]) => typeof value === "number" && !Number.isFinite(value));
      if (nonFinite.length > 0)
        throw failed(
          nonFinite.map(([name]) => ({
            instancePath: `/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`,
            schemaPath: "#/finite",
            keyword: "finite",
            params: {},
            message: "must be a finite number",
          })),
          part,
          schema,
        );
    }
  };
}

function failed(errors: readonly ErrorObject[], part: Part, schema: Schema): HttpError {
  const details = schemaProblems(errors, part, schema);
  return new HttpError(400, "VALIDATION_FAILED", `invalid ${part}: ${details.map((d) => `${d.field} ${d.problem}`).join("; ")}`, { details });
}

/** The outcome of one validation: the coerced data when accepted, the error body when refused. */
function outcome(validate: RequestValidator, data: unknown): unknown {
  const copy = structuredClone(data);
  try {
    validate(copy);
    return { accepted: copy };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { refused: error.body };
  }
}

/** Property names of a schema and the ones nested in it, so random objects use mostly the names it knows. */
function propertyNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) propertyNames(item, into);
  else if (typeof schema === "object" && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if (key === "properties") for (const name of Object.keys(value as object)) into.add(name);
      propertyNames(value, into);
    }
  }
  return into;
}

/** Bounds and edge values of the schemas (0..11 zones, 0..360 degrees, 1..1000 limits, Date range, 1..168 hours) and their neighbours. */
const EDGE_NUMBERS = [
  -8_640_000_000_000_001,
  -1,
  -0.5,
  0,
  0.5,
  1,
  2,
  11,
  12,
  64,
  65,
  100,
  128,
  168,
  169,
  359.9,
  360,
  361,
  1000,
  1001,
  86_399_999,
  86_400_000,
  8_640_000_000_000_000,
  Number.MAX_SAFE_INTEGER,
];
const EDGE_TEXT = [
  "",
  "0",
  "5",
  "11",
  "12",
  "Z0",
  "Z11",
  "Z12",
  "z3",
  "1.5",
  "-1",
  "1e400",
  "-1e400",
  "NaN",
  "0x10",
  " 7",
  "abc",
  "a".repeat(128),
  "a".repeat(129),
  "😀".repeat(100),
  "0".repeat(64),
  "true",
  "null",
];

function bodyValue(names: readonly string[]): fc.Arbitrary<unknown> {
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom(...EDGE_NUMBERS),
      fc.integer(),
      fc.double(),
      fc.constantFrom(...EDGE_TEXT),
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.array(fc.constantFrom(...EDGE_NUMBERS), { maxLength: 3 }),
      fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 3 })), tie("value"), { maxKeys: 7 }),
    ),
  }));
  return value;
}

function queryValue(names: readonly string[]): fc.Arbitrary<unknown> {
  const text = fc.oneof(fc.constantFrom(...EDGE_TEXT), fc.integer().map(String), fc.double().map(String), fc.string({ maxLength: 6 }));
  return fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 3 })), fc.oneof(text, fc.array(text, { minLength: 2, maxLength: 3 })), { maxKeys: 5 });
}

/**
 * Values of the schema's own shape, mostly valid and sometimes just outside a bound, a pattern, a length or
 * the listed properties: the random inputs above rarely build a whole valid request of many fields.
 */
function fromSchema(schema: Schema): fc.Arbitrary<unknown> {
  // An enum (with or without a type) is mostly one of its values: otherwise too few bodies are valid to test acceptance.
  if (Array.isArray(schema.enum)) return fc.oneof({ arbitrary: fc.constantFrom(...(schema.enum as unknown[])), weight: 8 }, { arbitrary: fc.jsonValue(), weight: 2 });
  if (Array.isArray(schema.oneOf)) return fc.oneof(...(schema.oneOf as Schema[]).map(fromSchema));
  switch (schema.type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      if (Object.keys(properties).length === 0) return fc.oneof(fc.constant({}), fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue(), { maxKeys: 2 }));
      // The optional properties are there or not at random.
      const record = fc.record(Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, fromSchema(property)])), { requiredKeys: (schema.required ?? []) as string[] });
      return fc.oneof({ arbitrary: record, weight: 8 }, { arbitrary: fc.tuple(record, fc.constantFrom("extra", "__proto__")).map(([r, name]) => ({ ...r, [name]: 1 })), weight: 1 });
    }
    case "array": {
      const prefix = schema.prefixItems as Schema[] | undefined;
      if (prefix !== undefined) return fc.oneof({ arbitrary: fc.tuple(...prefix.map(fromSchema)), weight: 8 }, { arbitrary: fc.array(fc.double(), { maxLength: 3 }), weight: 1 });
      const items = schema.items as Schema;
      const min = (schema.minItems as number | undefined) ?? 0;
      const max = (schema.maxItems as number | undefined) ?? min + 3;
      return fc.array(fromSchema(items), { minLength: Math.max(0, min - 1), maxLength: Math.min(max + 1, min + 4) });
    }
    case "integer":
    case "number": {
      const min = (schema.minimum ?? schema.exclusiveMinimum ?? -1e6) as number;
      const max = (schema.maximum ?? schema.exclusiveMaximum ?? 1e6) as number;
      const inside =
        schema.type === "integer" ? fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) }) : fc.double({ min, max, noNaN: true });
      return fc.oneof({ arbitrary: inside, weight: 8 }, { arbitrary: fc.constantFrom(min - 1, max + 1, min + 0.5, min, max), weight: 2 });
    }
    case "string": {
      const pattern = schema.pattern as string | undefined;
      const valid =
        pattern === undefined
          ? fc.string({ minLength: (schema.minLength as number | undefined) ?? 0, maxLength: Math.min((schema.maxLength as number | undefined) ?? 12, 12) })
          : fc.stringMatching(new RegExp(pattern));
      return fc.oneof({ arbitrary: valid, weight: 8 }, { arbitrary: fc.constantFrom(...EDGE_TEXT), weight: 2 });
    }
    case "boolean":
      return fc.oneof({ arbitrary: fc.boolean(), weight: 8 }, { arbitrary: fc.constantFrom(0, 1, "true", null), weight: 2 });
    default:
      return fc.jsonValue();
  }
}

/** Query values as a client sends them: text (a number or a name written out), sometimes repeated. */
function asQuery(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, Array.isArray(v) ? v.map(queryText) : queryText(v)]));
}

function queryText(value: unknown): string {
  // JSON for objects, which may have no prototype (and so no toString).
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

const cases = ROUTES.flatMap((route) =>
  (["body", "query"] as const).flatMap((part) => (route[part] === undefined ? [] : [{ name: `${route.method} ${route.path} ${part}`, part, schema: route[part] }])),
);

describe("validating as ajv does", () => {
  const generated = requestValidators();
  it.each(cases)("$name: the same accepted (and coerced) requests, the same refusals and problem lists", ({ part, schema }) => {
    const mine = generated[part](schema);
    const reference = ajvValidator(schema, part);
    const names = [...propertyNames(schema)];
    const shaped = fromSchema(schema);
    const inputs =
      part === "body"
        ? fc.oneof({ arbitrary: shaped, weight: 3 }, bodyValue(names), fc.dictionary(fc.constantFrom(...(names.length > 0 ? names : ["x"])), bodyValue(names)))
        : fc.oneof({ arbitrary: shaped.map(asQuery), weight: 3 }, queryValue(names.length > 0 ? names : ["x"]));
    let accepted = 0;
    fc.assert(
      fc.property(inputs, (data) => {
        const expected = outcome(reference, data);
        expect(outcome(mine, data)).toEqual(expected);
        if ("accepted" in (expected as object)) accepted++;
      }),
      { numRuns: 300 },
    );
    // Both sides of the schema are explored: a good share of the requests pass, most of the rest break one rule.
    expect(accepted).toBeGreaterThan(10);
  });

  it("refuses a body naming every bad field once (a pinned example): a zone that is none of its forms is one problem, in the schema's title", () => {
    const validate = generated.body(REQUESTS.allow);
    expect(outcome(validate, { window: [0, 400], zone: "Z12", extra: 1 })).toEqual({
      refused: {
        error: {
          code: "VALIDATION_FAILED",
          message: 'invalid body: body.extra is not allowed; body.window[1] must be <= 360; body.zone must be an SWT zone: 0..11 or "Z0".."Z11"',
          details: [
            { field: "body.extra", problem: "is not allowed" },
            { field: "body.window[1]", problem: "must be <= 360" },
            { field: "body.zone", problem: 'must be an SWT zone: 0..11 or "Z0".."Z11"' },
          ],
        },
      },
    });
    for (const zone of [12, -1, 1.5, true, null, "z1", ""]) {
      expect(outcome(validate, { window: [0, 90], zone })).toMatchObject({ refused: { error: { details: [{ field: "body.zone", problem: 'must be an SWT zone: 0..11 or "Z0".."Z11"' }] } } });
    }
    // The same words where the zone has a description of its own, and in a query, where it is a pattern.
    expect(outcome(generated.body(REQUESTS.zttVerify), { bundle: {}, zone: "Z12" })).toMatchObject({
      refused: { error: { details: [{ field: "body.zone", problem: 'must be an SWT zone: 0..11 or "Z0".."Z11"' }] } },
    });
    expect(outcome(generated.query(REQUESTS.zoneOnly), { zone: "12" })).toMatchObject({
      refused: { error: { details: [{ field: "query.zone", problem: "must be an SWT zone: 0..11 or Z0..Z11" }] } },
    });
  });

  it("has a validator for every request schema a route uses, and none for a schema outside REQUESTS", () => {
    expect(cases.length).toBeGreaterThan(10);
    expect(() => generated.body({ type: "object" })).toThrow(/no generated body validator for a schema outside REQUESTS/);
  });
});
