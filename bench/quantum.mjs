#!/usr/bin/env node
// Benchmark of @temporal/quantum's simulator. Run `npx tsc -b packages/quantum` first, then `npm run bench -- quantum`.
// 1. Gate throughput at 20 qubits against the memory bound: one RX on every qubit, each gate one pass over the
//    2^20 amplitudes (real and imaginary Float64Arrays), compared with a bare read-and-write pass over the same two
//    arrays in the same run. Target: ratio >= 0.3.
// 2. The same 12-qubit QAOA circuit (the scheduling QUBO of 4 tasks x 3 slots, p = 1) on our state vector and on npm
//    `quantum-circuit`, same run, with the energies compared as a cross-check.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { fixed, medianMsEach, printTable } from "./harness.mjs";

const dist = (entry) => fileURLToPath(new URL(`../packages/quantum/dist/${entry}`, import.meta.url));
const { StateVector } = await import(dist("statevector.js"));
const { runStateVector } = await import(dist("simulate.js"));
const { qaoaCircuit, quboToIsing, quboCost, schedulingQubo } = await import(dist("index.js"));
// quantum-circuit's antlr4 warns about its own circular imports on every load: noise, not a finding of this bench.
process.removeAllListeners("warning");
const QuantumCircuit = createRequire(import.meta.url)("quantum-circuit");

const THROUGHPUT_QUBITS = 20;
const THROUGHPUT_TARGET = 0.3;
const OUR_BATCH = 100;

function measureThroughput() {
  const state = new StateVector(THROUGHPUT_QUBITS);
  const { re, im } = state;
  // a non-trivial state, so no pass works on zeros the CPU could shortcut
  for (let i = 0; i < re.length; i++) [re[i], im[i]] = [Math.cos(i), Math.sin(i)];
  let checksum = 0;
  const gates = () => {
    for (let k = 0; k < THROUGHPUT_QUBITS; k++) state.rx(k, 0.1 + k / 100);
  };
  // the memory bound: each element of both arrays read once and written once, per "gate"
  const passes = () => {
    for (let k = 0; k < THROUGHPUT_QUBITS; k++) {
      for (let i = 0; i < re.length; i++) {
        const r = re[i];
        re[i] = im[i];
        im[i] = r;
      }
    }
  };
  const [gateMs, passMs] = medianMsEach([gates, passes], { runs: 7, warmup: 1 });
  checksum += re[1] + im[2];
  const amplitudes = 2 ** THROUGHPUT_QUBITS;
  return { gateMs: gateMs / THROUGHPUT_QUBITS, passMs: passMs / THROUGHPUT_QUBITS, amplitudes, checksum };
}

/** The 12-qubit p = 1 QAOA circuit of a real scheduling QUBO, at fixed angles. */
function benchCircuit() {
  const { qubo } = schedulingQubo({ nTasks: 4, nHS: 3, startMs: Date.UTC(2026, 0, 1, 14), startPhaseDeg: 210, preferences: [220, null, 250, 240] });
  return { qubo, circuit: qaoaCircuit(quboToIsing(qubo), [0.4], [0.3]) };
}

/** Our gates, one by one (not the diagonal shortcut runQaoa takes), then the energy sum_x p(x) cost(x). */
function ourEnergy(circuit, costs) {
  const { re, im } = runStateVector(circuit);
  let energy = 0;
  for (let x = 0; x < re.length; x++) energy += (re[x] * re[x] + im[x] * im[x]) * costs[x];
  return energy;
}

function theirEnergy(circuit, costs) {
  const qc = new QuantumCircuit(circuit.qubits);
  for (const gate of circuit.gates) {
    if (gate.kind === "h") qc.appendGate("h", gate.qubit);
    else if (gate.kind === "rx") qc.appendGate("rx", gate.qubit, { params: { theta: gate.angle } });
    else if (gate.kind === "rz") qc.appendGate("rz", gate.qubit, { params: { phi: gate.angle } });
    else if (gate.kind === "rzz") qc.appendGate("zz", [...gate.qubits], { params: { theta: gate.angle } });
    else throw new Error(`no mapping for ${gate.kind}`);
  }
  qc.run();
  let energy = 0;
  // quantum-circuit keeps only non-zero amplitudes, keyed by basis index; wire k is bit k as ours
  for (const [index, amplitude] of Object.entries(qc.state)) energy += (amplitude.re ** 2 + amplitude.im ** 2) * costs[Number(index)];
  return energy;
}

function measureAgainstQuantumCircuit() {
  const { qubo, circuit } = benchCircuit();
  const costs = Float64Array.from({ length: 2 ** circuit.qubits }, (_, x) =>
    quboCost(
      qubo,
      Array.from({ length: circuit.qubits }, (_, i) => (x >> i) & 1),
    ),
  );
  const ours = ourEnergy(circuit, costs);
  const theirs = theirEnergy(circuit, costs);
  // Ours takes about a millisecond: each sample is a batch of runs, so that a time slice lost to the other
  // processes on the machine is a small part of it.
  const [batchMs, theirMs] = medianMsEach(
    [
      () => {
        for (let i = 0; i < OUR_BATCH; i++) ourEnergy(circuit, costs);
      },
      () => theirEnergy(circuit, costs),
    ],
    { runs: 5, warmup: 1 },
  );
  const ourMs = batchMs / OUR_BATCH;
  return { qubits: circuit.qubits, gates: circuit.gates.length, ours, theirs, ourMs, theirMs };
}

const throughput = measureThroughput();
const ratio = throughput.passMs / throughput.gateMs;
printTable(`gate throughput, ${THROUGHPUT_QUBITS} qubits (${throughput.amplitudes} amplitudes, ${(throughput.amplitudes * 16) / 2 ** 20} MiB)`, [
  ["", "ms per pass", "amplitudes / s"],
  ["RX gate (mean over the 20 qubits)", fixed(throughput.gateMs, 3), `${fixed(throughput.amplitudes / throughput.gateMs / 1e3, 1)} M`],
  ["bare Float64Array read-and-write pass", fixed(throughput.passMs, 3), `${fixed(throughput.amplitudes / throughput.passMs / 1e3, 1)} M`],
]);
console.log(`  ratio (pass time / gate time): ${fixed(ratio)} (target >= ${THROUGHPUT_TARGET}) ${ratio >= THROUGHPUT_TARGET ? "ok" : "BELOW TARGET"}`);

const versus = measureAgainstQuantumCircuit();
printTable(`QAOA p = 1, ${versus.qubits} qubits, ${versus.gates} gates (4 tasks x 3 slots), energy at fixed angles`, [
  ["", "ms", "energy"],
  ["@temporal/quantum state vector", fixed(versus.ourMs, 3), versus.ours],
  ["quantum-circuit (npm)", fixed(versus.theirMs, 1), versus.theirs],
]);
const agree = Math.abs(versus.ours - versus.theirs) <= 1e-9 * Math.max(1, Math.abs(versus.ours));
console.log(`  speed-up: ${fixed(versus.theirMs / versus.ourMs, 0)}x; energies ${agree ? "agree to 1e-9" : "DIFFER"}`);
if (ratio < THROUGHPUT_TARGET || !agree) process.exitCode = 1;
