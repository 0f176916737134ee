import { describe, expect, it } from "vitest";
import { createCompileClient, type CompileReply, type CompileRequest } from "../../src/time/compile-client.js";
import { compileForPage } from "../../src/time/load-missions.js";

/** The worker's side, in this process: answers as compile-worker.ts does, in the order `release` is called. */
class WorkerStandIn extends EventTarget {
  readonly requests: CompileRequest[] = [];
  postMessage(request: CompileRequest): void {
    this.requests.push(structuredClone(request));
  }
  reply(reply: CompileReply): void {
    this.dispatchEvent(new MessageEvent("message", { data: structuredClone(reply) }));
  }
  answer(index: number): void {
    const { id, source, filename } = this.requests[index]!;
    this.reply({ id, compiled: compileForPage(source, filename) });
  }
}

const valid = "@temporal v4.6.2\nmission a {\n  require phase [0, 90]\n  on ALLOW {\n    execute t\n  }\n}\n";

describe("createCompileClient", () => {
  it("matches replies to requests by id, whatever their order", async () => {
    const worker = new WorkerStandIn();
    const compileInWorker = createCompileClient(worker as unknown as Worker);
    const first = compileInWorker(valid, "a.mission");
    const second = compileInWorker("mission {", "b.mission");
    worker.answer(1);
    worker.answer(0);
    const [a, b] = await Promise.all([first, second]);
    expect(a).toMatchObject({ ok: true, model: { filename: "a.mission" } });
    expect(a.ok && a.code).toContain("defineMission");
    expect(b).toMatchObject({ ok: false, model: { filename: "b.mission" } });
    expect(!b.ok && b.errors.length).toBeGreaterThan(0);
  });

  it("rejects with the compiler's message when it threw, and every waiting request when the worker fails", async () => {
    const worker = new WorkerStandIn();
    const compileInWorker = createCompileClient(worker as unknown as Worker);
    const thrown = compileInWorker(valid, "a.mission");
    worker.reply({ id: worker.requests[0]!.id, failure: "out of memory" });
    await expect(thrown).rejects.toThrow("the compiler failed: out of memory");

    const waiting = [compileInWorker(valid, "a.mission"), compileInWorker(valid, "b.mission")];
    worker.dispatchEvent(Object.assign(new Event("error"), { message: "" }));
    for (const request of waiting) await expect(request).rejects.toThrow("the compile worker failed: it could not start");
  });
});
