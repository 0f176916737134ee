import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TemporalRangeError, TemporalTypeError, qualityDecision, type QualityInput } from "../src/core/index.js";

const base: QualityInput = { score: 0.8, threshold: 0.75, updated_unix_ms: 1_714_521_600_000, source: "file" };

function expectError(input: unknown, ...fragments: string[]): void {
  let thrown: unknown;
  try {
    qualityDecision(input as QualityInput);
  } catch (error) {
    thrown = error;
  }
  expect(thrown instanceof TemporalRangeError || thrown instanceof TemporalTypeError, String(thrown)).toBe(true);
  expect((thrown as { code: string }).code).toBe("INVALID_QUALITY_INPUT");
  for (const fragment of fragments) expect((thrown as Error).message).toContain(fragment);
}

describe("qualityDecision", () => {
  it("allows a score at or above the threshold", () => {
    expect(qualityDecision(base)).toStrictEqual({ score: 0.8, threshold: 0.75, verdict: "ALLOW", updated_unix_ms: 1_714_521_600_000, source: "file" });
    expect(qualityDecision({ ...base, score: 0.75 }).verdict).toBe("ALLOW");
    expect(qualityDecision({ ...base, score: 0.7499 }).verdict).toBe("DENY");
    expect(qualityDecision({ ...base, score: 0, threshold: 0 }).verdict).toBe("ALLOW");
    expect(qualityDecision({ ...base, score: 1, threshold: 1, source: "static" }).verdict).toBe("ALLOW");
  });

  it("is ALLOW exactly when score >= threshold", () => {
    const unit = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(unit, unit, (score, threshold) => {
        expect(qualityDecision({ ...base, score, threshold }).verdict).toBe(score >= threshold ? "ALLOW" : "DENY");
      }),
    );
  });

  it("floors a fractional file time to the millisecond", () => {
    expect(qualityDecision({ ...base, updated_unix_ms: 1_714_521_600_000.75 }).updated_unix_ms).toBe(1_714_521_600_000);
  });

  it("names the bad field and value", () => {
    expectError(null, "null");
    expectError({ ...base, score: 1.01 }, "score", "1.01");
    expectError({ ...base, score: Number.NaN }, "score", "NaN");
    expectError({ ...base, score: "0.9" }, "score", '"0.9"');
    expectError({ ...base, threshold: -0.1 }, "threshold", "-0.1");
    expectError({ ...base, threshold: Infinity }, "threshold", "Infinity");
    expectError({ ...base, updated_unix_ms: -1 }, "updated_unix_ms", "-1");
    expectError({ ...base, updated_unix_ms: 9e15 }, "updated_unix_ms");
    expectError({ ...base, source: "db" }, "source", '"db"');
  });
});
