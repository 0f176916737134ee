import fc from "fast-check";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { sqlInteger, sqlText } from "../src/sql-literals.js";
import { useTestPostgres } from "./nodes.js";

const { server } = useTestPostgres(0);

describe("SQL literals (the values an append inlines)", () => {
  it("reads back every string exactly as written, in one multi-statement query", { timeout: 30_000 }, async () => {
    const client = new pg.Client({ connectionString: server().url });
    await client.connect();
    try {
      // Any text PostgreSQL can hold (all but NUL), with quotes, backslashes and what JSON.stringify makes of them.
      const text = fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: fc.constantFrom("'", "\\", '"', "E", ";", "-", "$", "\n") }), fc.json());
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            text.filter((value) => !value.includes("\0")),
            { minLength: 1, maxLength: 5 },
          ),
          async (values) => {
            const results = (await client.query(values.map((value) => `SELECT ${sqlText(value)} AS v`).join("; "))) as unknown as
              pg.QueryResult<{ v: string }>[] | pg.QueryResult<{ v: string }>;
            const rows = (Array.isArray(results) ? results : [results]).map((result) => result.rows[0]?.v);
            expect(rows).toEqual(values);
          },
        ),
        { numRuns: 200 },
      );
    } finally {
      await client.end();
    }
  });

  it("writes safe integers only", () => {
    expect(sqlInteger(0)).toBe("0");
    expect(sqlInteger(-42)).toBe("-42");
    expect(sqlInteger(Number.MAX_SAFE_INTEGER)).toBe("9007199254740991");
    for (const value of [1.5, Number.NaN, Infinity, 2 ** 53, Number("1; DROP TABLE log_records")]) expect(() => sqlInteger(value)).toThrow(RangeError);
  });
});
