import { InvalidArgumentError } from "commander";

/**
 * Parsers of `temporalc run`'s numeric options. Only plain decimal numbers
 * are accepted: `Number()` would also take `0x10`, `1e3`, `0b1` or `  7 `,
 * which are far more likely typos than intended values.
 */

const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A non-negative decimal number, or `undefined` when `value` is not one. */
function decimal(value: string): number | undefined {
  return DECIMAL.test(value) ? Number(value) : undefined;
}

/** `--carbon`: grid carbon intensity in gCO2eq/kWh, a decimal number of 0 or more. */
export function carbonIntensity(value: string): number {
  const number = decimal(value);
  if (number === undefined || !Number.isFinite(number)) throw new InvalidArgumentError("expected a decimal number of gCO2eq/kWh, 0 or more, e.g. 180 (no hex, exponent or sign)");
  return number;
}

/** `--hs-bloch`: an HS-Bloch quality score from 0 to 1; a percentage (95) gets the hint to divide by 100. */
export function hsBlochScore(value: string): number {
  const number = decimal(value);
  if (number !== undefined && number <= 1) return number;
  // 2..100 reads as a percentage; 1.5 or 300 are more likely typos, so they get the plain example.
  const asFraction = number !== undefined && number >= 2 && number <= 100 ? `, e.g. ${number / 100} rather than ${value}` : ", e.g. 0.95";
  throw new InvalidArgumentError(`expected a score from 0 to 1${asFraction}`);
}
