import { QuantumError } from "./errors.js";

// Checks of the options several entry points share, each an INVALID_OPTION error saying what is allowed.

export function checkNoise(noise: number): void {
  if (!Number.isFinite(noise) || noise < 0 || noise > 1) throw new QuantumError("INVALID_OPTION", `noise is a depolarizing strength in [0, 1], got ${String(noise)}`);
}

export function checkShots(shots: number): void {
  if (!Number.isInteger(shots) || shots < 1) throw new QuantumError("INVALID_OPTION", `shots must be a positive integer, got ${String(shots)}`);
}

export function checkSeed(seed: number): void {
  if (!Number.isSafeInteger(seed)) throw new QuantumError("INVALID_OPTION", `seed must be an integer, got ${String(seed)}`);
}
