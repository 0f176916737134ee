import type { Backend } from "./backends.js";
import { QuantumError } from "./errors.js";

/** HS-Bloch quality of a backend in [0, 1]: the mean length of measured Bloch vectors of single-qubit calibration states. */
export async function hsBlochQuality(backend: Backend | string, options: { shots?: number; seed?: number; noise?: number } = {}): Promise<number> {
  void backend;
  void options;
  throw new QuantumError("INVALID_OPTION", "hsBlochQuality is not implemented yet");
}
