import type { Backend } from "./backends.js";
import { resolveBackend } from "./backends.js";
import type { Gate } from "./circuit.js";
import { checkSeed, checkShots } from "./options.js";
import { DEFAULT_SHOTS } from "./sampling.js";

/**
 * Single-qubit calibration states, each prepared by at least one gate (so
 * gate noise shows in every one): |1>, |+>, |+i> and a state off every axis.
 */
const CALIBRATION_STATES: readonly (readonly Gate[])[] = [
  [{ kind: "x", qubit: 0 }],
  [{ kind: "h", qubit: 0 }],
  [{ kind: "rx", qubit: 0, angle: -Math.PI / 2 }],
  [
    { kind: "ry", qubit: 0, angle: (2 * Math.PI) / 3 },
    { kind: "rz", qubit: 0, angle: Math.PI / 4 },
  ],
];

/**
 * Rotations that turn a measurement in the computational basis into one of
 * X, Y or Z: <X> = <Z> after RY(-pi/2), <Y> = <Z> after RX(pi/2).
 */
const MEASUREMENT_BASES: readonly (readonly Gate[])[] = [[{ kind: "ry", qubit: 0, angle: -Math.PI / 2 }], [{ kind: "rx", qubit: 0, angle: Math.PI / 2 }], []];

/**
 * HS-Bloch quality of a backend in [0, 1]: the mean length of the Bloch
 * vector (<X>, <Y>, <Z>) measured on qubit 0 for each calibration state.
 * A pure state has length 1, so a noiseless backend scores 1; noise mixes the
 * state and shortens the vector. Exact when the backend gives probabilities
 * and `shots` is not set; otherwise estimated from `shots` per basis, seeded.
 */
export async function hsBlochQuality(backend: Backend | string, options: { shots?: number; seed?: number; noise?: number } = {}): Promise<number> {
  const target = resolveBackend(backend, options.noise);
  if (options.shots !== undefined) checkShots(options.shots);
  const seed = options.seed ?? 0;
  checkSeed(seed);
  let run = 0;
  const expectZ = async (gates: Gate[]): Promise<number> => {
    const circuit = { qubits: 1, gates };
    if (options.shots === undefined && target.probabilities !== undefined) {
      const [p0, p1] = await target.probabilities(circuit);
      return p0! - p1!;
    }
    const shots = options.shots ?? DEFAULT_SHOTS;
    const counts = await target.sample(circuit, shots, seed + run++);
    return ((counts.get(0) ?? 0) - (counts.get(1) ?? 0)) / shots;
  };
  let total = 0;
  for (const preparation of CALIBRATION_STATES) {
    let squared = 0;
    for (const basis of MEASUREMENT_BASES) squared += (await expectZ([...preparation, ...basis])) ** 2;
    // Shot noise can push an estimate of a pure state's length past 1.
    total += Math.min(1, Math.sqrt(squared));
  }
  return total / CALIBRATION_STATES.length;
}
