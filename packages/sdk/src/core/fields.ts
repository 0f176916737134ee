import { MISSING_FIELD, type FieldIssue } from "./errors.js";
import { MAX_ABS_UNIX_MS } from "./units.js";

/**
 * Shape checking for signed wire records: a record is valid only with
 * exactly the expected fields, so nothing unsigned can ride along with a
 * signature.
 */
export type FieldRule = (value: unknown) => string | undefined;

/**
 * The fields of a record and the rule for each, prepared once per record
 * type. `optional` names fields a record may leave out; when present they
 * are checked like the others (and, being signed, cannot be added or
 * removed without breaking the signature).
 */
export class RecordShape {
  readonly #rules: readonly (readonly [string, FieldRule])[];
  readonly #names: ReadonlySet<string>;
  readonly #optional: ReadonlySet<string>;

  constructor(rules: Readonly<Record<string, FieldRule>>, optional: readonly string[] = []) {
    this.#rules = Object.entries(rules);
    this.#names = new Set(Object.keys(rules));
    this.#optional = new Set(optional);
  }

  /** Every missing, invalid or unknown field of `value`. */
  issues(value: unknown): FieldIssue[] {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return [{ field: "(record)", value, reason: "is not an object" }];
    }
    const record = value as Record<string, unknown>;
    const issues: FieldIssue[] = [];
    for (const [field, rule] of this.#rules) {
      if (!Object.hasOwn(record, field) && this.#optional.has(field)) continue;
      const reason = Object.hasOwn(record, field) ? rule(record[field]) : MISSING_FIELD;
      if (reason !== undefined) issues.push({ field, value: record[field], reason });
    }
    for (const field of Object.keys(record)) {
      if (!this.#names.has(field)) issues.push({ field, value: record[field], reason: "is not a known field" });
    }
    return issues;
  }
}

export function integerIn(min: number, max: number): FieldRule {
  return (value) => (Number.isInteger(value) && (value as number) >= min && (value as number) <= max ? undefined : `is not an integer in [${min}, ${max}]`);
}

export function matching(pattern: RegExp, description: string): FieldRule {
  return (value) => (typeof value === "string" && pattern.test(value) ? undefined : `does not match ${description}`);
}

export function exactly(expected: unknown): FieldRule {
  return (value) => (value === expected ? undefined : `is not ${JSON.stringify(expected)}`);
}

export const HASH_RULE = matching(/^[0-9a-f]{64}$/, "64 lowercase hex digits");
export const KEY_ID_RULE = matching(/^[0-9a-f]{16}$/, "16 lowercase hex digits");
export const SIGNATURE_RULE = matching(/^[0-9a-f]{128}$/, "128 lowercase hex digits");
export const UNIX_MS_RULE = integerIn(0, MAX_ABS_UNIX_MS);

/** Every field but `signature`: what a signature covers. */
export function withoutSignature<T extends { signature: string }>(record: T): Omit<T, "signature"> {
  const { signature: _signature, ...rest } = record;
  return rest;
}
