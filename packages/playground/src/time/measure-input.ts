/**
 * The carbon and HS-Bloch fields, read as `temporalc run` reads `--carbon`
 * and `--hs-bloch` (packages/cli/src/run-options.ts): digits and a point
 * only, so whatever the panel accepts, the equivalent command accepts too.
 * Empty means "not measured" (the mission then denies with *_UNKNOWN).
 */

export type MeasureReading = { readonly ok: true; readonly value: number | null } | { readonly ok: false; readonly message: string };

const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A measure field's reader: empty is "not measured"; otherwise a decimal that `fits`, or `message` saying what to type. */
function measureReader(fits: (value: number) => boolean, message: string): (text: string) => MeasureReading {
  return (text) => {
    const trimmed = text.trim();
    if (trimmed === "") return { ok: true, value: null };
    const value = DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
    return fits(value) ? { ok: true, value } : { ok: false, message };
  };
}

/** Any finite decimal (digits too many for a double are not). */
export const readCarbon = measureReader(Number.isFinite, "carbon: a decimal number of gCO2eq/kWh, 0 or more, e.g. 180; empty = not measured");

/** A score from 0 to 1 (NaN, what does not read, fits nothing). */
export const readHsBloch = measureReader((value) => value <= 1, "HS-Bloch: a score from 0 to 1, e.g. 0.95; empty = not measured");
