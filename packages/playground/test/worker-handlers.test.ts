import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createWorkerHandlers } from "../src/worker/handlers.js";
import { PROTOCOL_VERSION, type Method, type RequestMessage, type Requests } from "../src/worker/protocol.js";

const EXAMPLE = readFileSync(new URL("../../../examples/nightly-backup.mission", import.meta.url), "utf8");
const BROKEN = "@temporal v4.6.2\n@anchor Z1\n\nmission m {\n  require phase [300, 30\n}\n";

let nextId = 1;
function message<M extends Method>(method: M, version: number, params: Requests[M]["params"]): RequestMessage {
  return { protocol: PROTOCOL_VERSION, id: nextId++, version, method, params } as RequestMessage;
}

async function ok<M extends Method>(handlers: ReturnType<typeof createWorkerHandlers>, method: M, version: number, params: Requests[M]["params"]): Promise<Requests[M]["result"]> {
  const response = await handlers.handle(message(method, version, params));
  if (response.outcome !== "ok") throw new Error(`expected ok, got ${JSON.stringify(response)}`);
  return response.result as Requests[M]["result"];
}

describe("the language worker's handlers", () => {
  it("answers an update with no diagnostics and highlights for a valid example", async () => {
    const handlers = createWorkerHandlers();
    const { diagnostics, highlights } = await ok(handlers, "update", 1, { text: EXAMPLE, filename: "nightly-backup.mission" });
    expect(diagnostics).toEqual([]);
    const missionKeyword = EXAMPLE.indexOf("mission nightly_backup");
    expect(highlights).toContainEqual({ from: missionKeyword, to: missionKeyword + "mission".length, type: "keyword", declaration: false });
    const name = missionKeyword + "mission ".length;
    expect(highlights).toContainEqual({ from: name, to: name + "nightly_backup".length, type: "class", declaration: true });
  });

  it("reports a syntax error as offsets with its code and docs link, and compiles to a message instead of JavaScript", async () => {
    const handlers = createWorkerHandlers();
    const { diagnostics } = await ok(handlers, "update", 1, { text: BROKEN, filename: "broken.mission" });
    expect(diagnostics.length).toBeGreaterThan(0);
    const first = diagnostics.find((d) => d.severity === "error");
    expect(first).toBeDefined();
    expect(first!.code).toMatch(/^M\d{3}$/);
    expect(first!.docsUrl).toContain(first!.code.toLowerCase());
    expect(first!.from).toBeGreaterThanOrEqual(BROKEN.indexOf("require"));
    const compiled = await ok(handlers, "compile", 1, {});
    expect(compiled).toMatchObject({ ok: false });
    if (!compiled.ok) expect(compiled.firstError).toMatch(/^broken\.mission:\d+:\d+ M\d{3} /);
  });

  it("compiles a valid document to JavaScript that imports the SDK", async () => {
    const handlers = createWorkerHandlers();
    await ok(handlers, "update", 1, { text: EXAMPLE, filename: "nightly-backup.mission" });
    const compiled = await ok(handlers, "compile", 1, {});
    expect(compiled.ok).toBe(true);
    if (compiled.ok) expect(compiled.javascript).toContain('from "@temporal/agent-sdk"');
  });

  it("formats a badly laid out document and answers null for a formatted one", async () => {
    const handlers = createWorkerHandlers();
    await ok(handlers, "update", 1, { text: EXAMPLE.replace("mission nightly_backup {", "mission   nightly_backup{"), filename: "a.mission" });
    const formatted = await ok(handlers, "format", 1, {});
    expect(formatted).toEqual({ text: EXAMPLE });
    await ok(handlers, "update", 2, { text: EXAMPLE, filename: "a.mission" });
    expect(await ok(handlers, "format", 2, {})).toBeNull();
  }, 20_000);

  it("hovers a phase window with its clock times, over the window's range", async () => {
    const handlers = createWorkerHandlers();
    await ok(handlers, "update", 1, { text: EXAMPLE, filename: "a.mission" });
    const hover = await ok(handlers, "hover", 1, { offset: EXAMPLE.indexOf("[300, 30]") + 2 });
    expect(hover).not.toBeNull();
    expect(hover!.markdown).toContain("20:00");
    expect(hover!.from).toBeLessThanOrEqual(EXAMPLE.indexOf("[300, 30]"));
    expect(hover!.to).toBeGreaterThan(EXAMPLE.indexOf("[300, 30]"));
  });

  it("completes a half-typed keyword, replacing what was typed", async () => {
    const handlers = createWorkerHandlers();
    const text = "@temporal v4.6.2\n@anchor Z1\n\nmission m {\n  req";
    await ok(handlers, "update", 1, { text, filename: "a.mission" });
    const completion = await ok(handlers, "complete", 1, { offset: text.length });
    expect(completion).not.toBeNull();
    expect(completion!.from).toBe(text.length - 3);
    expect(completion!.to).toBe(text.length);
    expect(completion!.options.map((o) => o.label)).toContain("require");
  });

  it("answers stale for a request about an older version, and for an update older than the current one", async () => {
    const handlers = createWorkerHandlers();
    await ok(handlers, "update", 2, { text: EXAMPLE, filename: "a.mission" });
    expect(await handlers.handle(message("hover", 1, { offset: 0 }))).toMatchObject({ outcome: "stale", version: 1 });
    expect(await handlers.handle(message("update", 1, { text: "", filename: "a.mission" }))).toMatchObject({ outcome: "stale" });
    // The stale update did not replace the document.
    expect((await ok(handlers, "compile", 2, {})).ok).toBe(true);
  });

  it("never answers stale to a request that carries its own text (the page's time panel and Run count on it)", async () => {
    const handlers = createWorkerHandlers();
    await ok(handlers, "update", 2, { text: BROKEN, filename: "a.mission" });
    const settings = { text: EXAMPLE, filename: "b.mission", at: Date.UTC(2026, 0, 1, 12), carbon: null, hsBloch: null };
    for (const method of ["timePanel", "run"] as const) expect(await handlers.handle(message(method, 1, settings)), method).toMatchObject({ outcome: "ok", version: 1 });
  });

  it("refuses a message from another protocol version", async () => {
    const handlers = createWorkerHandlers();
    const response = await handlers.handle({ ...message("compile", 0, {}), protocol: 99 } as unknown as RequestMessage);
    expect(response).toMatchObject({ outcome: "error", message: expect.stringContaining("reload the page") });
  });
});
