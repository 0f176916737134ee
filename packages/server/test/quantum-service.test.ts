import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createClient } from "@temporal/agent-sdk";
import { orchestrate, type AllowVerdict } from "@temporal/quantum";
import { ConfigError, loadConfig } from "../src/index.js";
import { startService, tempDir } from "./helpers.js";

const INSIDE = Date.UTC(2026, 0, 1, 14, 0); // phase 210 deg

async function getJson(url: string, key: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const reply = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
}

async function postJson(url: string, key: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const reply = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
}

describe("GET quantum/decision with a simulator quality source", () => {
  it("reports the noisy simulator's HS-Bloch quality, below 1, and the noiseless one's as 1", async () => {
    const noisy = await startService({ quality: { simulator: "statevector-noisy", noise: 0.05, seed: 3 } }, { clock: () => INSIDE });
    const { status, body } = await getJson(`${noisy.url}/api/v1/quantum/decision?threshold=0.5`, noisy.keys.managed);
    expect(status).toBe(200);
    expect(body).toMatchObject({ threshold: 0.5, verdict: "ALLOW", source: "simulator", updated_unix_ms: INSIDE });
    expect(body.score).toBeGreaterThan(0.5);
    expect(body.score).toBeLessThan(1);
    // estimated once: the same score on every request
    expect((await getJson(`${noisy.url}/api/v1/quantum/decision?threshold=0.99`, noisy.keys.managed)).body).toMatchObject({ score: body.score, verdict: "DENY" });

    const exact = await startService({ quality: { simulator: "statevector" } });
    expect((await getJson(`${exact.url}/api/v1/quantum/decision`, exact.keys.managed)).body).toMatchObject({ score: 1, source: "simulator" });
  });

  it("a config file with a simulator source loads as written; one naming an unknown simulator, giving noise to the noiseless one, or mixing sources, is refused", async () => {
    const dir = await tempDir();
    const good = join(dir, "good.json");
    await writeFile(good, JSON.stringify({ quality: { simulator: "statevector-noisy", noise: 0.01, shots: 2000, seed: 9 } }));
    expect((await loadConfig(good, false)).quality).toEqual({ simulator: "statevector-noisy", noise: 0.01, shots: 2000, seed: 9 });

    const cases: [unknown, RegExp][] = [
      [{ simulator: "ibm-eagle" }, /quality: Unknown quantum backend "ibm-eagle"; known backends: statevector, statevector-noisy/],
      [{ simulator: "statevector", noise: 0.1 }, /quality: noise sets the depolarizing strength of "statevector-noisy" only/],
      [{ score: 0.9, noise: 0.1 }, /quality/],
      [{ simulator: "statevector", file: "q.json" }, /quality/],
      [{ simulator: "statevector-noisy", noise: 2 }, /quality\/noise|quality\.noise/],
    ];
    for (const [quality, message] of cases) {
      const path = join(dir, "service.json");
      await writeFile(path, JSON.stringify({ quality }));
      const error = await loadConfig(path, false).catch((thrown: unknown) => thrown);
      expect(error, JSON.stringify(quality)).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toMatch(message);
    }
  });
});

describe("POST quantum/verify of an orchestrate() result", () => {
  it("orchestrate() anchors through the service as a remote authority, and the service verifies the result end to end", async () => {
    const service = await startService({}, { clock: () => INSIDE });
    const authority = createClient({ baseUrl: service.url, apiKey: service.keys.enterprise });
    // no clock given: the phase comes from the service's clock
    const verdict = await orchestrate({ nTasks: 2, nHS: 2, seed: 4, authority });
    expect(verdict.verdict).toBe("ALLOW");
    const { result, receipt, proof } = verdict as AllowVerdict;
    expect(result.at_unix_ms).toBe(INSIDE);

    const verify = (body: unknown) => postJson(`${service.url}/api/v1/quantum/verify`, service.keys.quantum, body);
    expect(await verify({ result, receipt, proof })).toEqual({ status: 200, body: { signature: true, inclusion: true, chain: true, result: true, valid: true } });
    // one field of the result changed: the hash no longer matches
    const changed = { ...result, schedule: { ...result.schedule, assignment: [...result.schedule.assignment].reverse() } };
    expect((await verify({ result: changed, receipt, proof })).body).toEqual({ signature: true, inclusion: true, chain: true, result: false, valid: false });
    expect((await verify({ result: null, receipt, proof })).body).toMatchObject({ result: false, valid: false });
    // without a result, the reply is the receipt and proof checks as before
    expect((await verify({ receipt, proof })).body).toEqual({ signature: true, inclusion: true, chain: true, valid: true });
    // the SDK client sends the result along
    const client = createClient({ baseUrl: service.url, apiKey: service.keys.quantum });
    expect(await client.verifyQuantumProof(receipt, proof, result)).toMatchObject({ result: true, valid: true });
    expect(await client.verifyQuantumProof(receipt, proof, changed)).toMatchObject({ result: false, valid: false });
  });
});
