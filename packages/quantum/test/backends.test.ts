import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { backendById, DEFAULT_NOISE, KNOWN_BACKENDS } from "../src/index.js";
import { NoisyStatevectorBackend } from "../src/backends.js";
import { expectQuantumError } from "./helpers.js";

describe("backends", () => {
  it("are known by id; the noisy one defaults to DEFAULT_NOISE", () => {
    expect(KNOWN_BACKENDS).toEqual(["statevector", "statevector-noisy"]);
    expect(backendById("statevector").id).toBe("statevector");
    const noisy = backendById("statevector-noisy");
    expect(noisy).toBeInstanceOf(NoisyStatevectorBackend);
    expect((noisy as NoisyStatevectorBackend).noise).toBe(DEFAULT_NOISE);
    expect((backendById("statevector-noisy", { noise: 0.2 }) as NoisyStatevectorBackend).noise).toBe(0.2);
  });

  it("give exact probabilities and seeded samples of the same circuit", async () => {
    const backend = backendById("statevector");
    const bell = { qubits: 2, gates: [{ kind: "h", qubit: 0 } as const, { kind: "cnot", control: 0, target: 1 } as const] };
    const probabilities = await backend.probabilities!(bell);
    [0.5, 0, 0, 0.5].forEach((p, x) => expect(probabilities[x]).toBeCloseTo(p, 15));
    const counts = await backend.sample(bell, 1000, 4);
    expect([...counts.keys()].sort()).toEqual([0, 3]);
    expect(await backend.sample(bell, 1000, 4)).toEqual(counts);
  });

  it("reject circuits they cannot run, naming the gate or the limit", async () => {
    const exact = backendById("statevector");
    await expectQuantumError(() => exact.probabilities!({ qubits: 2, gates: [{ kind: "h", qubit: 2 }] }), "INVALID_CIRCUIT", /gates\[0\] \(h\) acts on qubits 2; valid qubits are 0\.\.1/);
    await expectQuantumError(() => exact.probabilities!({ qubits: 2, gates: [{ kind: "rzz", qubits: [1, 1], angle: 1 }] }), "INVALID_CIRCUIT", /needs two different qubits/);
    await expectQuantumError(() => exact.probabilities!({ qubits: 1, gates: [{ kind: "rx", qubit: 0, angle: Infinity }] }), "INVALID_CIRCUIT", /angle Infinity; it must be finite/);
    await expectQuantumError(() => exact.sample({ qubits: 1, gates: [] }, 0, 1), "INVALID_OPTION", /shots must be a positive integer/);
    await expectQuantumError(() => backendById("statevector", { noise: 0.1 }), "INVALID_OPTION", /noise sets the depolarizing strength of "statevector-noisy" only; backend "statevector"/);
    await expectQuantumError(
      () => backendById("statevector-noisy").probabilities!({ qubits: 11, gates: [] }),
      "TOO_LARGE",
      /"statevector-noisy" runs at most 10 qubits; this circuit has 11/,
    );
  });

  it("the package's platform-free modules import no Node.js built-ins (src/node holds the CLI)", () => {
    const src = new URL("../src/", import.meta.url);
    for (const file of readdirSync(src).filter((name) => name.endsWith(".ts"))) {
      expect(readFileSync(new URL(file, src), "utf8"), file).not.toMatch(/from\s+["'](node:|fs|path|os|crypto|child_process)/);
    }
  });
});
