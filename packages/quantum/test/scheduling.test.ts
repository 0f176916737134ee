import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { constantCarbonSeries, parseCarbonForecast } from "@temporal/agent-sdk";
import { bruteForce, decodeSchedule, quboCost, scheduleBits, schedulingQubo, QuantumError, SLOT_MS, type SchedulingProblem } from "../src/index.js";

const START = Date.UTC(2026, 0, 1, 14, 0); // phase 210 deg at Z0
const base = { startMs: START, startPhaseDeg: 210 } as const;

/** Small instances (at most 12 variables, so brute force is instant) with random conflicts and preferences. */
const instances = fc
  .record({ nTasks: fc.integer({ min: 1, max: 4 }), nHS: fc.integer({ min: 1, max: 4 }) })
  .filter(({ nTasks, nHS }) => nTasks * nHS <= 12)
  .chain(({ nTasks, nHS }) =>
    fc.record({
      nTasks: fc.constant(nTasks),
      nHS: fc.constant(nHS),
      pairs: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: nTasks * nTasks, maxLength: nTasks * nTasks }),
      preferences: fc.array(fc.option(fc.integer({ min: 0, max: 359 }), { nil: null }), { minLength: nTasks, maxLength: nTasks }),
    }),
  )
  .map(({ nTasks, nHS, pairs, preferences }): SchedulingProblem => {
    // symmetric: the weight of {t, u} is read from the upper triangle
    const conflicts = Array.from({ length: nTasks }, (_, t) => Array.from({ length: nTasks }, (_, u) => (t === u ? 0 : pairs[Math.min(t, u) * nTasks + Math.max(t, u)]!)));
    return { ...base, nTasks, nHS, conflicts, preferences };
  });

describe("schedulingQubo", () => {
  it("has one variable per task and slot, and slots of one hour (15 degrees) from the start", () => {
    const { qubo, slots, penalty } = schedulingQubo({ ...base, nTasks: 3, nHS: 4 });
    expect(qubo.size).toBe(12);
    expect(slots.map((s) => s.start_unix_ms - START)).toEqual([0, 1, 2, 3].map((s) => s * SLOT_MS));
    expect(slots.map((s) => s.phase_deg)).toEqual([217.5, 232.5, 247.5, 262.5]);
    // default conflicts: all pairs weigh 1, so leaving a task out gains at most 2 (its two conflicts)
    expect(penalty).toBe(3);
  });

  it("costs a feasible assignment exactly its conflicts and preferences (the penalty vanishes)", () => {
    const encoded = schedulingQubo({ ...base, nTasks: 3, nHS: 2, preferences: [217.5, null, 37.5] });
    // tasks 0 and 1 share slot 0 (conflict 1); task 0 sits at its preference (0); task 2 is 180 degrees from its preference in slot 0 (1)
    expect(quboCost(encoded.qubo, scheduleBits([0, 0, 0], 2))).toBeCloseTo(3 + 1, 12);
    expect(quboCost(encoded.qubo, scheduleBits([0, 1, 0], 2))).toBeCloseTo(1 + 1, 12);
  });

  it("places a lone task in the cleanest slot of a forecast", () => {
    const forecast = parseCarbonForecast({
      location: "x",
      forecastData: [400, 300, 80, 500].map((value, i) => ({ timestamp: new Date(START + i * SLOT_MS).toISOString(), duration: 60, value })),
    });
    const encoded = schedulingQubo({ ...base, nTasks: 1, nHS: 4, carbon: forecast });
    expect(encoded.slots.map((s) => s.carbon_intensity)).toEqual([400, 300, 80, 500]);
    expect(decodeSchedule(encoded, bruteForce(encoded.qubo).bits).assignment).toEqual([2]);
  });

  it("places a lone task at its preferred phase", () => {
    const encoded = schedulingQubo({ ...base, nTasks: 1, nHS: 4, preferences: [250] });
    expect(decodeSchedule(encoded, bruteForce(encoded.qubo).bits).assignment).toEqual([2]); // slot 2 is centred on 247.5
  });

  it("brute-force optima are feasible schedules, without conflicts when there are at least as many slots as tasks", () => {
    fc.assert(
      fc.property(instances, (problem) => {
        const encoded = schedulingQubo(problem);
        const exact = bruteForce(encoded.qubo);
        const schedule = decodeSchedule(encoded, exact.bits);
        expect(schedule.repaired).toBe(false);
        expect(schedule.cost).toBeCloseTo(exact.cost, 9);
        if (problem.nHS >= problem.nTasks) expect(schedule.conflicts).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it("decodes any bits to a feasible schedule that costs no more than the bits did", () => {
    const withBits = instances.chain((problem) =>
      fc.tuple(fc.constant(problem), fc.array(fc.integer({ min: 0, max: 1 }), { minLength: problem.nTasks * problem.nHS, maxLength: problem.nTasks * problem.nHS })),
    );
    fc.assert(
      fc.property(withBits, ([problem, bits]) => {
        const encoded = schedulingQubo(problem);
        const schedule = decodeSchedule(encoded, bits);
        expect(schedule.assignment).toHaveLength(problem.nTasks);
        for (const s of schedule.assignment) expect(s >= 0 && s < problem.nHS).toBe(true);
        expect(schedule.cost).toBeLessThanOrEqual(quboCost(encoded.qubo, bits) + 1e-9);
        const oneHot = Array.from({ length: problem.nTasks }, (_, t) => bits.slice(t * problem.nHS, (t + 1) * problem.nHS).filter((b) => b === 1).length === 1);
        expect(schedule.repaired).toBe(!oneHot.every(Boolean));
      }),
      { numRuns: 200 },
    );
  });

  it("refuses bad problems with INVALID_OPTION or TOO_LARGE, naming the field", () => {
    const bad: [Partial<SchedulingProblem>, string, RegExp][] = [
      [{ nTasks: 0 }, "INVALID_OPTION", /nTasks/],
      [{ nHS: 2.5 }, "INVALID_OPTION", /nHS/],
      [{ nTasks: 5, nHS: 5 }, "TOO_LARGE", /25 qubits/],
      [
        {
          conflicts: [
            [0, 1],
            [2, 0],
          ],
        },
        "INVALID_OPTION",
        /symmetric/,
      ],
      [
        {
          conflicts: [
            [0, -1],
            [-1, 0],
          ],
        },
        "INVALID_OPTION",
        /conflicts\[0\]\[1\]/,
      ],
      [{ preferences: [400, null] }, "INVALID_OPTION", /preferences\[0\]/],
      [{ carbonWeight: Number.NaN }, "INVALID_OPTION", /carbonWeight/],
      [{ carbon: constantCarbonSeries(100).map(() => ({ start_unix_ms: START, end_unix_ms: START + 1000, intensity: 1 })) }, "INVALID_OPTION", /does not cover/],
    ];
    for (const [change, code, message] of bad) {
      const attempt = () => schedulingQubo({ ...base, nTasks: 2, nHS: 2, ...change });
      expect(attempt).toThrow(QuantumError);
      expect(attempt).toThrow(message);
      try {
        attempt();
      } catch (error) {
        expect((error as QuantumError).code).toBe(code);
      }
    }
  });
});
