import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { schemaProblems } from "../src/service/index.js";

/** The problems ajv's errors give for `data` against `schema`, as the service and the config reader ask for them. */
function problemsOf(schema: Record<string, unknown>, data: unknown, withSchema = true) {
  const validate = new Ajv2020({ allErrors: true, strict: true, strictRequired: false }).compile(schema);
  expect(validate(data)).toBe(false);
  return schemaProblems(validate.errors ?? [], "body", withSchema ? schema : undefined);
}

describe("schemaProblems", () => {
  const forms = { anyOf: [{ type: "boolean" }, { type: "array", items: { type: "string" } }] };

  it("makes a value that matches none of its forms one problem: the forms' own problems joined by 'or', or the schema's title", () => {
    expect(problemsOf({ type: "object", properties: { proxy: forms } }, { proxy: "x" })).toEqual([{ field: "body.proxy", problem: "must be boolean or must be array" }]);
    const titled = { type: "object", properties: { proxy: { ...forms, title: "true, false or a list of addresses", description: "documentation, never in a refusal" } } };
    expect(problemsOf(titled, { proxy: "x" })).toEqual([{ field: "body.proxy", problem: "must be true, false or a list of addresses" }]);
    // Without the schema its title cannot be read: the forms' problems are joined.
    expect(problemsOf(titled, { proxy: "x" }, false)).toEqual([{ field: "body.proxy", problem: "must be boolean or must be array" }]);
  });

  it("says 'must be' and the title for any keyword of a titled schema, such as a pattern, and the keyword's own words without one", () => {
    const code = { type: "string", pattern: "^[A-Z]{3}$", title: "three capital letters" };
    expect(problemsOf({ type: "object", properties: { code } }, { code: "ab" })).toEqual([{ field: "body.code", problem: "must be three capital letters" }]);
    const { title: _, ...untitled } = code;
    expect(problemsOf({ type: "object", properties: { code: untitled } }, { code: "ab" })).toEqual([{ field: "body.code", problem: 'must match pattern "^[A-Z]{3}$"' }]);
  });

  it("keeps the problems of a form that names a deeper field, and the fields beside the forms", () => {
    // The array form fails inside the value (an item), so its problem names the item: it stands, as do the others.
    expect(problemsOf({ type: "object", properties: { proxy: forms, port: { type: "integer" } } }, { proxy: [1], port: "80" })).toEqual([
      { field: "body.proxy", problem: "must be boolean" },
      { field: "body.proxy[0]", problem: "must be string" },
      { field: "body.port", problem: "must be integer" },
    ]);
    // A form that requires a property: the missing property is named, not folded into the object's problem.
    const oneOfRequired = { type: "object", oneOf: [{ required: ["score"] }, { required: ["file"] }] };
    expect(problemsOf(oneOfRequired, {})).toEqual([
      { field: "body.score", problem: "is required" },
      { field: "body.file", problem: "is required" },
    ]);
  });

  it("folds nested forms from the inside out, each value once", () => {
    const nested = { type: "object", properties: { a: { oneOf: [{ type: "integer" }, { oneOf: [{ type: "string", maxLength: 1 }, { type: "null" }] }] } } };
    expect(problemsOf(nested, { a: "long" })).toEqual([{ field: "body.a", problem: "must be integer or must NOT have more than 1 characters or must be null" }]);
  });
});
