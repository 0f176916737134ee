import { verifyReceipt } from "@temporal/agent-sdk";
import { describe, expect, it } from "vitest";
import { createLanguageClient } from "../src/worker/client.js";
import { createWorkerHandlers } from "../src/worker/handlers.js";
import type { RequestMessage, ResponseMessage } from "../src/worker/protocol.js";

/**
 * The page's client against the real handlers, through an object with a
 * Worker's message surface: the messages are the same ones a Web Worker
 * carries, answered asynchronously as a worker would. `crash` fires the
 * `error` event a worker that failed fires, and the worker then answers nothing.
 */
function inProcessWorker(): Worker & { crash(message: string): void } {
  const handlers = createWorkerHandlers();
  const listeners = { message: [] as ((event: MessageEvent<ResponseMessage>) => void)[], error: [] as ((event: ErrorEvent) => void)[] };
  let crashed = false;
  return {
    addEventListener: (type: "message" | "error", listener: never) => listeners[type].push(listener),
    postMessage: (message: RequestMessage) => {
      void handlers.handle(structuredClone(message)).then((response) => {
        if (crashed) return;
        for (const listener of listeners.message) listener({ data: structuredClone(response) } as MessageEvent<ResponseMessage>);
      });
    },
    crash(message: string) {
      crashed = true;
      for (const listener of listeners.error) listener({ message, preventDefault: () => {} } as ErrorEvent);
    },
  } as unknown as Worker & { crash(message: string): void };
}

const VALID = "@temporal v4.6.2\n@anchor Z1\n\nmission m {\n  require phase [300, 30]\n  on ALLOW {\n    execute a\n  }\n}\n";

describe("the language client", () => {
  it("numbers each update and answers requests about the latest one", async () => {
    const client = createLanguageClient(inProcessWorker());
    const analysis = await client.update(VALID, "a.mission");
    expect(client.version).toBe(1);
    expect(analysis?.diagnostics).toEqual([]);
    const compiled = await client.request("compile", {});
    expect(compiled).toMatchObject({ ok: true });
  });

  it("drops the answer to an update the editor has moved past", async () => {
    const client = createLanguageClient(inProcessWorker());
    const first = client.update("mission broken {", "a.mission");
    const second = client.update(VALID, "a.mission");
    expect(await first).toBeUndefined();
    expect((await second)?.diagnostics).toEqual([]);
  });

  it("drops the answer to a request asked before the next update", async () => {
    const client = createLanguageClient(inProcessWorker());
    await client.update(VALID, "a.mission");
    const formatting = client.request("format", {});
    void client.update(`${VALID}\n`, "a.mission");
    expect(await formatting).toBeUndefined();
  });

  it("answers the time panel's request, which carries its own text, even after a newer update", async () => {
    const client = createLanguageClient(inProcessWorker());
    await client.update("mission half {", "a.mission");
    const panel = client.request("timePanel", { text: VALID, filename: "a.mission", at: Date.UTC(2026, 0, 1, 12), carbon: null, hsBloch: null });
    void client.update("mission other {", "a.mission");
    const answer = await panel;
    // The model only: the generated code stays in the worker, which runs it.
    expect(answer.compiled).toEqual({ ok: true, model: expect.objectContaining({ missions: [expect.objectContaining({ name: "m" })] }) });
    expect(answer.dial?.data.missions.map((m) => m.name)).toEqual(["m"]);
    expect(answer.dial?.svg).toMatch(/^<svg[^>]*>/);
    // Decided in the worker by the compiled mission: 12:00 UTC is 13:00 or 14:00 in Z1, outside 20:00–02:00.
    expect(answer.verdicts).toMatchObject([{ mission: "m", verdict: "DENY", reasons: [{ code: "PHASE_OUTSIDE_WINDOW" }] }]);
    const broken = await client.request("timePanel", { text: "mission half {", filename: "a.mission", at: 0, carbon: null, hsBloch: null });
    expect(broken).toMatchObject({ compiled: { ok: false, errors: [expect.objectContaining({ code: "M102" })] }, dial: null, verdicts: null });
  });

  it("runs in the worker: the stand-in tasks' lines, receipts verified there and in Node with the keys it returns, one authority per session", async () => {
    const client = createLanguageClient(inProcessWorker());
    // 22:00 UTC is 23:00 or 00:00 in Z1, inside 20:00–02:00: the mission runs `a`.
    const anchored = VALID.replace("execute a\n", "execute a\n    anchor TSAE -> clockchain\n");
    const settings = { text: anchored, filename: "a.mission", at: Date.UTC(2026, 0, 1, 22), carbon: null, hsBloch: null };
    const first = await client.request("run", settings);
    const second = await client.request("run", settings);
    expect(first.log).toEqual([expect.stringMatching(/^m: a ran \(stand-in\) at phase /)]);
    const [run] = first.runs;
    if (run === undefined || !run.ok) throw new Error(`the run failed: ${JSON.stringify(run)}`);
    expect(run.result.executed).toEqual(["a"]);
    expect(run.verified).toHaveLength(1);
    for (const { receipt, valid } of run.verified) {
      expect(valid).toBe(true);
      expect(await verifyReceipt(receipt, first.publicKeys[receipt.key_id]!)).toBe(true);
      expect(await verifyReceipt({ ...receipt, phi_action_ticks: receipt.phi_action_ticks + 1 }, first.publicKeys[receipt.key_id]!)).toBe(false);
    }
    expect(second.publicKeys).toEqual(first.publicKeys);
    await expect(client.request("run", { ...settings, text: "mission half {" })).rejects.toThrow(/the source has errors/);
  });

  it("rejects the requests waiting, and every later one, when the worker fails, and says so once", async () => {
    const worker = inProcessWorker();
    const failures: string[] = [];
    const client = createLanguageClient(worker, (error) => failures.push(error.message));
    const waiting = client.update(VALID, "a.mission");
    worker.crash("SyntaxError: bad chunk");
    await expect(waiting).rejects.toThrow("the language worker stopped: SyntaxError: bad chunk");
    await expect(client.request("compile", {})).rejects.toThrow("the language worker stopped");
    expect(failures).toEqual(["the language worker stopped: SyntaxError: bad chunk"]);
  });
});
