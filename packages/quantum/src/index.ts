/**
 * `@temporal/quantum`: QAOA for QUBO problems on our own simulators (exact
 * state vector; density matrix with depolarizing noise), zero-noise
 * extrapolation, and the HS-Bloch calibration score of a backend.
 * Platform-free: no Node.js built-ins, runs in browsers.
 */
export type { Qubo, QuboTerm, Ising, IsingTerm } from "./qubo.js";
export { quboCost, bruteForce, quboToIsing, isingEnergy, MAX_BRUTE_FORCE_SIZE } from "./qubo.js";
export type { Gate, Circuit } from "./circuit.js";
export { foldCircuit } from "./circuit.js";
export type { Backend } from "./backends.js";
export { backendById, KNOWN_BACKENDS, DEFAULT_NOISE } from "./backends.js";
export type { QaoaOptions, QaoaResult } from "./qaoa.js";
export { runQaoa, MIN_EVALUATIONS } from "./qaoa.js";
export { DEFAULT_SHOTS } from "./sampling.js";
export { qaoaCircuit } from "./qaoa-circuit.js";
export type { Extrapolation } from "./zne.js";
export { extrapolateToZero, ZNE_SCALES } from "./zne.js";
export { hsBlochQuality } from "./calibration.js";
export { QuantumError } from "./errors.js";
export type { QuantumErrorCode } from "./errors.js";
// The job's meaning and its surfaces (scheduling QUBO, the phase- and carbon-gated, anchored flow): docs/quantum.md.
export { schedulingQubo, decodeSchedule, scheduleBits, SLOT_DEGREES, SLOT_MS, MAX_SCHEDULE_QUBITS } from "./scheduling.js";
export type { SchedulingProblem, SchedulingQubo, Schedule, Slot } from "./scheduling.js";
export { orchestrate, quantumResultHash, QUANTUM_WINDOW, CARBON_DELAY_RATIO } from "./orchestrate.js";
export type { OrchestrateOptions, OrchestrateVerdict, AllowVerdict, DelayVerdict, QuantumRunResult } from "./orchestrate.js";
export { verifyQuantumResult, type QuantumVerification } from "./verify-result.js";
