import { QuantumError } from "./errors.js";

/**
 * The gate-level circuit every backend runs: what a remote device receives.
 * Angles follow the usual rotation convention R_P(theta) = exp(-i theta P / 2),
 * RZZ(theta) = exp(-i theta Z(x)Z / 2). Qubit i is bit i of a basis-state index.
 */
export type Gate =
  | { readonly kind: "h" | "x"; readonly qubit: number }
  | { readonly kind: "rx" | "ry" | "rz"; readonly qubit: number; readonly angle: number }
  | { readonly kind: "rzz"; readonly qubits: readonly [number, number]; readonly angle: number }
  | { readonly kind: "cnot"; readonly control: number; readonly target: number };

/** Starts from |0...0>; every qubit is measured in the computational basis at the end. */
export interface Circuit {
  readonly qubits: number;
  readonly gates: readonly Gate[];
}

/** The qubits a gate acts on. */
export function gateQubits(gate: Gate): number[] {
  switch (gate.kind) {
    case "rzz":
      return [...gate.qubits];
    case "cnot":
      return [gate.control, gate.target];
    default:
      return [gate.qubit];
  }
}

/** Throws QuantumError INVALID_CIRCUIT naming the first bad gate, or TOO_LARGE when the backend cannot hold the circuit. */
export function validateCircuit(circuit: Circuit, backend: { readonly id: string; readonly maxQubits: number }): void {
  if (!Number.isInteger(circuit.qubits) || circuit.qubits < 1) {
    throw new QuantumError("INVALID_CIRCUIT", `A circuit needs a positive integer number of qubits, got ${String(circuit.qubits)}`);
  }
  if (circuit.qubits > backend.maxQubits) {
    throw new QuantumError("TOO_LARGE", `Backend "${backend.id}" runs at most ${backend.maxQubits} qubits; this circuit has ${circuit.qubits}`);
  }
  circuit.gates.forEach((gate, index) => {
    const qubits = gateQubits(gate);
    if (qubits.some((q) => !Number.isInteger(q) || q < 0 || q >= circuit.qubits)) {
      throw new QuantumError("INVALID_CIRCUIT", `gates[${index}] (${gate.kind}) acts on qubits ${qubits.join(", ")}; valid qubits are 0..${circuit.qubits - 1}`);
    }
    if (qubits.length === 2 && qubits[0] === qubits[1]) throw new QuantumError("INVALID_CIRCUIT", `gates[${index}] (${gate.kind}) needs two different qubits, got ${qubits[0]} twice`);
    if ("angle" in gate && !Number.isFinite(gate.angle)) throw new QuantumError("INVALID_CIRCUIT", `gates[${index}] (${gate.kind}) has angle ${String(gate.angle)}; it must be finite`);
  });
}

/** G^dagger: rotations by the opposite angle; H, X and CNOT are their own inverses. */
export function inverseGate(gate: Gate): Gate {
  return "angle" in gate ? { ...gate, angle: -gate.angle } : gate;
}

/**
 * Unitary folding for zero-noise extrapolation: every gate G becomes
 * G (G^dagger G)^((scale - 1) / 2), the same unitary with `scale` times the
 * gates, hence about `scale` times the noise. `scale` is an odd positive integer.
 */
export function foldCircuit(circuit: Circuit, scale: number): Circuit {
  if (!Number.isInteger(scale) || scale < 1 || scale % 2 === 0) throw new QuantumError("INVALID_OPTION", `A folding scale factor must be an odd positive integer, got ${scale}`);
  const gates: Gate[] = [];
  for (const gate of circuit.gates) {
    gates.push(gate);
    const inverse = inverseGate(gate);
    for (let fold = 1; fold < scale; fold += 2) gates.push(inverse, gate);
  }
  return { qubits: circuit.qubits, gates };
}
