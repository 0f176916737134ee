import { generateKeyPairSync, sign } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noteVerifier } from "@temporal/agent-sdk";
import { Witness } from "../src/add-checkpoint.js";
import { createCosigner, submitCheckpoint } from "../src/index.js";
import { createWitnessServer } from "../src/server.js";
import { FileStateStore } from "../src/state-store.js";
import { TestLog } from "./test-log.js";

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

describe("submitCheckpoint", () => {
  let directory: string;
  let store: FileStateStore;
  let server: Server;
  let url: string;
  /** What the server reports as failures of the witness itself. */
  const failures: string[] = [];
  const log = new TestLog("example.com/log").append(12);

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "witness-client-"));
    store = await FileStateStore.open(directory);
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const raw = new Uint8Array(Buffer.from(publicKey.export({ format: "jwk" }).x as string, "base64url"));
    const cosigner = createCosigner("witness.example/w1", raw, async (message) => new Uint8Array(sign(null, message, privateKey)));
    server = createWitnessServer({
      witness: new Witness({ cosigner, logs: new Map([[log.origin, [await noteVerifier(log.vkey)]]]), store }),
      maxBodyBytes: 65_536,
      log: (line) => failures.push(line),
    });
    url = await listen(server);
  });

  afterAll(async () => {
    await close(server);
    await store.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("over HTTP, of concurrent submissions on one old size exactly one is cosigned; the others learn the new size", async () => {
    const outcomes = await Promise.all([4, 6, 8, 10].map(async (size) => submitCheckpoint(`${url}/`, { oldSize: 0, proof: [], note: await log.checkpoint(size) })));
    const cosigned = outcomes.filter((outcome) => outcome.kind === "cosigned");
    expect(cosigned).toHaveLength(1);
    const winner = [4, 6, 8, 10][outcomes.indexOf(cosigned[0]!)];
    expect(outcomes.filter((outcome) => outcome.kind === "conflict")).toEqual([1, 2, 3].map(() => ({ kind: "conflict", size: winner })));
  });

  it("the server does not report a client that disconnects mid-body as a failure of the witness", async () => {
    // events.once would reject on the request's "error"; only its "close" matters here.
    const requestClosed = new Promise((resolve) => server.once("request", (request: IncomingMessage) => request.once("close", resolve)));
    const client = connect(Number(new URL(url).port), "127.0.0.1");
    client.write("POST /add-checkpoint HTTP/1.1\r\nHost: witness\r\nContent-Length: 100\r\n\r\nold 0\n");
    await new Promise((resolve) => server.once("request", resolve));
    client.destroy();
    await requestClosed;
    // Give the handler's promise chain its turn after the connection broke.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(failures).toEqual([]);
  });

  it("refuses a prefix that is not an http(s) URL, and says when no witness answers", async () => {
    const request = { oldSize: 0, proof: [], note: await log.checkpoint(1) };
    await expect(submitCheckpoint("witness.example", request)).rejects.toMatchObject({ code: "INVALID_SUBMISSION" });
    await expect(submitCheckpoint("ftp://witness.example", request)).rejects.toMatchObject({ code: "INVALID_SUBMISSION" });
    await expect(submitCheckpoint(url, { ...request, oldSize: -1 })).rejects.toMatchObject({ code: "INVALID_SUBMISSION" });
    const gone = createServer();
    const goneUrl = await listen(gone);
    await close(gone);
    await expect(submitCheckpoint(goneUrl, request)).rejects.toMatchObject({ code: "WITNESS_UNREACHABLE" });
  });

  it("refuses answers the protocol does not allow: a 409 without its size body, a 200 without signature lines", async () => {
    const replies: [number, string, string][] = [
      [409, "text/plain", "12\n"],
      [409, "text/x.tlog.size", "twelve\n"],
      [200, "text/plain", "not a signature\n"],
    ];
    const liar = createServer((_, response) => {
      const [status, type, body] = replies.shift()!;
      response.writeHead(status, { "Content-Type": type }).end(body);
    });
    const liarUrl = await listen(liar);
    const request = { oldSize: 0, proof: [], note: await log.checkpoint(1) };
    for (let i = 0; i < 3; i++) await expect(submitCheckpoint(liarUrl, request)).rejects.toMatchObject({ code: "INVALID_WITNESS_REPLY" });
    await close(liar);
  });
});
