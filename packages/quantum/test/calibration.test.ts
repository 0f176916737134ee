import { describe, expect, it } from "vitest";
import type { Backend } from "../src/index.js";
import { backendById, hsBlochQuality } from "../src/index.js";
import { expectQuantumError } from "./helpers.js";

describe("HS-Bloch quality", () => {
  it("is 1 on the noiseless simulator, exactly", async () => {
    expect(Math.abs((await hsBlochQuality("statevector")) - 1)).toBeLessThan(1e-9);
    expect(Math.abs((await hsBlochQuality("statevector-noisy", { noise: 0 })) - 1)).toBeLessThan(1e-9);
  });

  it("falls strictly as the depolarizing strength grows, within [0, 1]", async () => {
    const strengths = [0, 0.001, 0.01, 0.05, 0.1, 0.3, 0.6, 1];
    const qualities: number[] = [];
    for (const noise of strengths) qualities.push(await hsBlochQuality(backendById("statevector-noisy", { noise })));
    for (const quality of qualities) {
      expect(quality).toBeGreaterThanOrEqual(0);
      expect(quality).toBeLessThanOrEqual(1);
    }
    for (let k = 1; k < qualities.length; k++) expect(qualities[k]!).toBeLessThan(qualities[k - 1]!);
    // full depolarizing after every gate leaves nothing of any prepared state
    expect(qualities.at(-1)).toBeCloseTo(0, 12);
  });

  it("estimates from seeded shots: deterministic, close to the exact score", async () => {
    const exact = await hsBlochQuality("statevector-noisy", { noise: 0.05 });
    const estimate = await hsBlochQuality("statevector-noisy", { noise: 0.05, shots: 20_000, seed: 3 });
    expect(await hsBlochQuality("statevector-noisy", { noise: 0.05, shots: 20_000, seed: 3 })).toBe(estimate);
    expect(Math.abs(estimate - exact)).toBeLessThan(0.02);
  });

  it("measures a backend that only samples", async () => {
    const simulator = backendById("statevector");
    const remote: Backend = { id: "remote", maxQubits: 1, sample: (circuit, shots, seed) => simulator.sample(circuit, shots, seed) };
    const quality = await hsBlochQuality(remote, { seed: 1 });
    expect(quality).toBeGreaterThan(0.95);
    expect(quality).toBeLessThanOrEqual(1);
  });

  it("rejects an unknown backend id, listing the known ones, and bad shots or seeds", async () => {
    await expectQuantumError(() => hsBlochQuality("qpu-1"), "UNKNOWN_BACKEND", /known backends: statevector, statevector-noisy/);
    await expectQuantumError(() => hsBlochQuality("statevector", { seed: 0.5 }), "INVALID_OPTION", /seed must be an integer, got 0.5/);
    await expectQuantumError(() => hsBlochQuality("statevector", { shots: -1 }), "INVALID_OPTION", /shots must be a positive integer, got -1/);
  });
});
