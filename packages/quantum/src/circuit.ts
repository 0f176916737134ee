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
