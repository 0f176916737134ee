/**
 * The carbon and HS-Bloch fields, read as `temporalc run` reads `--carbon`
 * and `--hs-bloch` (packages/cli/src/run-options.ts): digits and a point
 * only, so whatever the panel accepts, the equivalent command accepts too.
 * Empty means "not measured" (the mission then denies with *_UNKNOWN).
 */

export type MeasureReading = { readonly ok: true; readonly value: number | null } | { readonly ok: false; readonly message: string };

const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

export function readCarbon(text: string): MeasureReading {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, value: null };
  const value = DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
  return Number.isFinite(value) ? { ok: true, value } : { ok: false, message: "carbon: a decimal number of gCO2eq/kWh, 0 or more, e.g. 180; empty = not measured" };
}

export function readHsBloch(text: string): MeasureReading {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, value: null };
  const value = DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
  return value <= 1 ? { ok: true, value } : { ok: false, message: "HS-Bloch: a score from 0 to 1, e.g. 0.95; empty = not measured" };
}
