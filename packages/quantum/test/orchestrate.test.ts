import { describe, expect, it } from "vitest";
import { createMemoryAuthority, parseCarbonForecast, type Authority, type PublicKeyJwk } from "@temporal/agent-sdk";
import { backendById, orchestrate, quantumResultHash, verifyQuantumResult, QuantumError, SLOT_MS, type AllowVerdict, type Backend, type OrchestrateOptions } from "../src/index.js";

const HOUR = 3_600_000;
const INSIDE = Date.UTC(2026, 0, 1, 14, 0); // phase 210 deg at Z0: inside [200, 280]
const BEFORE = Date.UTC(2026, 0, 1, 6, 0); // phase 90 deg
const SMALL = { nTasks: 2, nHS: 2, seed: 7 } as const;

async function keyOf(authority: Authority): Promise<PublicKeyJwk> {
  return Object.values(await authority.publicKeys())[0]!;
}

function forecast(values: readonly number[], from: number) {
  return parseCarbonForecast({ location: "test", forecastData: values.map((value, i) => ({ timestamp: new Date(from + i * HOUR).toISOString(), duration: 60, value })) });
}

async function allowed(options: Partial<OrchestrateOptions> = {}): Promise<{ verdict: AllowVerdict; authority: Authority }> {
  const authority = options.authority ?? createMemoryAuthority();
  const verdict = await orchestrate({ ...SMALL, authority, clock: () => INSIDE, ...options });
  if (verdict.verdict !== "ALLOW") throw new Error(`expected ALLOW, got ${JSON.stringify(verdict)}`);
  return { verdict, authority };
}

describe("orchestrate: the phase gate", () => {
  it("answers DELAY PHASE_SUBOPTIMAL outside [200, 280], recommending the window's next opening, and runs nothing", async () => {
    const authority = createMemoryAuthority();
    const verdict = await orchestrate({ ...SMALL, authority, clock: () => BEFORE });
    expect(verdict).toEqual({
      verdict: "DELAY",
      reason: "PHASE_SUBOPTIMAL",
      phase_deg: 90,
      window: [200, 280],
      recommended_start_unix_ms: Date.UTC(2026, 0, 1, 13, 20), // 200 deg = 13:20 UTC
      recommended_start_utc: "2026-01-01T13:20:00.000Z",
    });
    expect((await authority.status()).anchors).toBe(0);
  });

  it("gates the zone-local phase: 08:00 UTC is 210 deg in Z3", async () => {
    const verdict = await orchestrate({ ...SMALL, authority: createMemoryAuthority(), clock: () => Date.UTC(2026, 0, 1, 8, 0), zone: "Z3" });
    expect(verdict.verdict).toBe("ALLOW");
  });

  it("inside the window runs the job, anchors the result and returns a feasible schedule with the exact optimum", async () => {
    const { verdict } = await allowed({ nTasks: 3, nHS: 3 });
    const { result, receipt, proof } = verdict;
    expect(result).toMatchObject({ kind: "temporal-quantum/schedule", version: 1, purpose: "schedule", at_unix_ms: INSIDE, phase_deg: 210, n_tasks: 3, n_hs: 3, carbon_aware: false });
    expect(result.qaoa.qubits).toBe(9);
    expect(result.qaoa.backend).toBe("statevector");
    expect([...result.schedule.assignment].sort()).toEqual([0, 1, 2]); // three tasks spread over three slots: the optimum, cost 0
    expect(result.schedule.cost).toBe(0);
    expect(result.qaoa.exact?.cost).toBe(0);
    expect(receipt.scope).toBe("quantum.schedule.v1");
    expect(receipt.action_hash_hex).toBe(quantumResultHash(result));
    expect(proof.receipt_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is deterministic: the same options and seed give the same result", async () => {
    const first = await allowed({ nTasks: 3, nHS: 2, seed: 11 });
    const second = await allowed({ nTasks: 3, nHS: 2, seed: 11 });
    expect(second.verdict.result).toEqual(first.verdict.result);
  });
});

describe("orchestrate: the carbon gate", () => {
  it("answers DELAY CARBON_SUBOPTIMAL when the coming hour is far dirtier than a slot ahead, recommending that slot", async () => {
    const verdict = await orchestrate({ ...SMALL, nHS: 3, authority: createMemoryAuthority(), clock: () => INSIDE, carbonAware: true, carbon: forecast([500, 400, 100], INSIDE) });
    expect(verdict).toMatchObject({
      verdict: "DELAY",
      reason: "CARBON_SUBOPTIMAL",
      recommended_start_unix_ms: INSIDE + 2 * SLOT_MS,
      carbon: { current: 500, best: 100, ratio: 5 },
    });
  });

  it("waits only for slots that start inside the phase window", async () => {
    const at = Date.UTC(2026, 0, 1, 17, 0); // 255 deg: slots start at 255, 270 and 285 deg, the last outside [200, 280]
    const verdict = await orchestrate({ ...SMALL, nHS: 3, authority: createMemoryAuthority(), clock: () => at, carbonAware: true, carbon: forecast([500, 450, 50], at) });
    expect(verdict.verdict).toBe("ALLOW");
  });

  it("runs when no slot is 1.5x cleaner, weighing each slot's intensity", async () => {
    const { verdict } = await allowed({ nTasks: 1, nHS: 3, carbonAware: true, carbon: forecast([300, 210, 250], INSIDE) });
    expect(verdict.result.carbon_aware).toBe(true);
    expect(verdict.result.slots.map((s) => s.carbon_intensity)).toEqual([300, 210, 250]);
    expect(verdict.result.schedule.assignment).toEqual([1]); // the cleanest slot
  });

  it("ignores the forecast without carbonAware", async () => {
    const { verdict } = await allowed({ carbon: forecast([900, 10], INSIDE) });
    expect(verdict.result.slots.every((s) => s.carbon_intensity === undefined)).toBe(true);
  });
});

describe("orchestrate: anchoring", () => {
  it("the anchored result verifies with the public key only, and fails when one field of it changes", async () => {
    const { verdict, authority } = await allowed({ purpose: "nightly-batch" });
    const { result, receipt, proof } = verdict;
    expect(receipt.scope).toBe("quantum.nightly-batch.v1");
    // what a client receives is JSON: verify what came through JSON
    const received = JSON.parse(JSON.stringify(verdict)) as AllowVerdict;
    const key = await keyOf(authority);
    expect(await verifyQuantumResult(received.result, received.receipt, received.proof, key)).toEqual({ hash: true, signature: true, inclusion: true, valid: true });

    const changed = { ...result, schedule: { ...result.schedule, cost: result.schedule.cost + 1 } };
    expect(await verifyQuantumResult(changed, receipt, proof, key)).toEqual({ hash: false, signature: true, inclusion: true, valid: false });
    const energy = { ...result, qaoa: { ...result.qaoa, energy: result.qaoa.energy / 2 } };
    expect((await verifyQuantumResult(energy, receipt, proof, key)).valid).toBe(false);
    const otherPurpose = { ...result, purpose: "other" };
    expect((await verifyQuantumResult(otherPurpose, receipt, proof, key)).hash).toBe(false);
    // a receipt re-pointed at another result no longer carries its signature
    const forged = { ...receipt, action_hash_hex: quantumResultHash(changed) };
    expect(await verifyQuantumResult(changed, forged, proof, key)).toEqual({ hash: true, signature: false, inclusion: false, valid: false });
    // another authority's key verifies nothing
    expect((await verifyQuantumResult(result, receipt, proof, await keyOf(createMemoryAuthority()))).valid).toBe(false);
    // malformed input gives false checks, not exceptions
    expect((await verifyQuantumResult(null, null as never, null as never, key)).valid).toBe(false);
  });

  it("anchors into the authority's clockchain: its verifyAnchored holds, chain included", async () => {
    const authority = createMemoryAuthority();
    const { verdict } = await allowed({ authority });
    expect(await authority.verifyAnchored(verdict.receipt, verdict.proof)).toEqual({ signature: true, inclusion: true, chain: true, valid: true });
  });
});

describe("orchestrate: backends", () => {
  it("runs on a Backend given as an object (remote hardware: sample() only), whose id is anchored with the result", async () => {
    const simulator = backendById("statevector");
    const remote: Backend = { id: "acme-qpu-7", maxQubits: 8, sample: (circuit, shots, seed) => simulator.sample(circuit, shots, seed) };
    const { verdict, authority } = await allowed({ backend: remote, shots: 256 });
    expect(verdict.result.qaoa.backend).toBe("acme-qpu-7");
    expect(verdict.result.schedule.conflicts).toEqual([]);
    expect((await verifyQuantumResult(verdict.result, verdict.receipt, verdict.proof, await keyOf(authority))).valid).toBe(true);
  });
});

describe("orchestrate: options", () => {
  it("refuses bad options with a coded QuantumError before anything runs", async () => {
    const authority = createMemoryAuthority();
    const cases: [Partial<OrchestrateOptions>, string, RegExp][] = [
      [{ carbonAware: true }, "INVALID_OPTION", /carbonAware needs a forecast/],
      [{ zne: "yes" as never }, "INVALID_OPTION", /zne must be a boolean/],
      [{ purpose: "Not Valid" }, "INVALID_OPTION", /purpose must match/],
      [{ backend: "ibm-eagle" }, "UNKNOWN_BACKEND", /statevector, statevector-noisy/],
      [{ nTasks: 0 }, "INVALID_OPTION", /nTasks/],
      [{ nTasks: 6, nHS: 5 }, "TOO_LARGE", /30 qubits/],
      [{ nTasks: 4, nHS: 3, backend: "statevector-noisy" }, "TOO_LARGE", /12 qubits, but backend "statevector-noisy" runs at most 10/],
      [{ backend: "statevector-noisy", noise: 2 }, "INVALID_OPTION", /noise/],
    ];
    // refused at any hour: inside the window and outside it
    for (const at of [INSIDE, BEFORE]) {
      for (const [change, code, message] of cases) {
        const error = await orchestrate({ ...SMALL, authority, clock: () => at, ...change }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, `${JSON.stringify(change)} at ${at}`).toBeInstanceOf(QuantumError);
        expect((error as QuantumError).code).toBe(code);
        expect((error as QuantumError).message).toMatch(message);
      }
    }
    expect((await authority.status()).anchors).toBe(0);
  });
});
