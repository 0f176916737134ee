import { describe, expect, it } from "vitest";
import { createLanguageClient } from "../src/worker/client.js";
import { createWorkerHandlers } from "../src/worker/handlers.js";
import type { RequestMessage, ResponseMessage } from "../src/worker/protocol.js";

/**
 * The page's client against the real handlers, through an object with a
 * Worker's message surface: the messages are the same ones a Web Worker
 * carries, answered asynchronously as a worker would.
 */
function inProcessWorker(): Worker {
  const handlers = createWorkerHandlers();
  const listeners: ((event: MessageEvent<ResponseMessage>) => void)[] = [];
  return {
    addEventListener: (_type: "message", listener: (event: MessageEvent<ResponseMessage>) => void) => listeners.push(listener),
    postMessage: (message: RequestMessage) => {
      void handlers.handle(structuredClone(message)).then((response) => {
        for (const listener of listeners) listener({ data: structuredClone(response) } as MessageEvent<ResponseMessage>);
      });
    },
  } as unknown as Worker;
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
});
