import { once } from "node:events";
import { connect } from "node:net";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { startService } from "./helpers.js";

interface ErrorReply {
  error: { code: string; message: string; details?: { field: string; problem: string }[] };
}

async function errorOf(response: Response): Promise<ErrorReply["error"]> {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await response.json()) as ErrorReply;
  expect(Object.keys(body)).toEqual(["error"]);
  expect(typeof body.error.message).toBe("string");
  return body.error;
}

const running = await startService();
const json = { "content-type": "application/json" };

describe("error replies", () => {
  it("400 INVALID_JSON for malformed JSON, an empty body and invalid UTF-8", async () => {
    for (const body of ['{"window": [1, 2', "", new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])]) {
      const response = await fetch(`${running.url}/api/v1/allow`, { method: "POST", headers: json, body });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).code).toBe("INVALID_JSON");
    }
  });

  it("400 VALIDATION_FAILED lists every bad field of a body", async () => {
    const response = await fetch(`${running.url}/api/v1/quantum/schedule`, {
      method: "POST",
      headers: { ...json, authorization: `Bearer ${running.keys.quantum}` },
      body: JSON.stringify({ tasks: [{ name: "", duration_ms: 1.5, window: [10, 400] }], horizon_hours: "24", extra: true }),
    });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.details?.map((d) => d.field).sort()).toEqual(["body.extra", "body.horizon_hours", "body.tasks[0].duration_ms", "body.tasks[0].name", "body.tasks[0].window[1]"]);
  });

  it("400 VALIDATION_FAILED for a bad query, naming the parameter", async () => {
    const response = await fetch(`${running.url}/v1/clockchain/anchors?tile_id=-1&limit=5000&colour=red`);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.details?.map((d) => d.field).sort()).toEqual(["query.colour", "query.limit", "query.tile_id"]);
  });

  it("400 with the SDK's code and every bad field for a TSAE request the SDK refuses", async () => {
    const response = await fetch(`${running.url}/api/v1/security/tsae`, {
      method: "POST",
      headers: { ...json, authorization: `Bearer ${running.keys.managed}` },
      body: JSON.stringify({ scope: "no dots", day_index: 0, phi_action_ticks: 0, swt_zone: 0, tile_id: 5, action_hash_hex: "xyz" }),
    });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("TSAE_REQUEST_INVALID");
    expect(error.details?.map((d) => d.field)).toEqual(expect.arrayContaining(["body.scope", "body.action_hash_hex", "body.tile_id"]));
  });

  it("404 NOT_FOUND for unknown paths, inside and outside the API", async () => {
    for (const path of ["/api/v1/nope", "/v2/core/state", "/", "/api/v1/core/state/"]) {
      const response = await fetch(`${running.url}${path}`);
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe("NOT_FOUND");
    }
  });

  it("405 METHOD_NOT_ALLOWED with Allow for a known path and the wrong method", async () => {
    for (const [method, path, allow] of [
      ["POST", "/api/v1/core/state", "GET, OPTIONS"],
      ["GET", "/v1/allow", "POST, OPTIONS"],
      ["DELETE", "/api/v1/keys", "GET, OPTIONS"],
    ] as const) {
      const response = await fetch(`${running.url}${path}`, { method, headers: json, ...(method === "POST" ? { body: "{}" } : {}) });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe(allow);
      expect((await errorOf(response)).code).toBe("METHOD_NOT_ALLOWED");
    }
  });

  it("405 for HEAD, so a GET route's handler never runs without its tier check", async () => {
    const response = await fetch(`${running.url}/api/v1/clockchain/status`, { method: "HEAD" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, OPTIONS");
  });

  it("413 PAYLOAD_TOO_LARGE over 64 KiB, and accepts a body just under it", async () => {
    const padded = (size: number) => JSON.stringify({ window: [0, 360], pad: "" }).replace('""', `"${"x".repeat(size)}"`);
    const over = await fetch(`${running.url}/api/v1/allow`, { method: "POST", headers: json, body: padded(64 * 1024) });
    expect(over.status).toBe(413);
    expect((await errorOf(over)).code).toBe("PAYLOAD_TOO_LARGE");
    const under = await fetch(`${running.url}/api/v1/allow`, { method: "POST", headers: json, body: padded(60 * 1024) });
    expect(under.status).toBe(400); // the extra field is refused by the schema, after the body was read
  });

  it("415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonp"]) {
      const response = await fetch(`${running.url}/api/v1/allow`, { method: "POST", headers: { "content-type": type }, body: '{"window":[0,90]}' });
      expect(response.status).toBe(415);
      expect((await errorOf(response)).code).toBe("UNSUPPORTED_MEDIA_TYPE");
    }
  });

  it("415 UNSUPPORTED_MEDIA_TYPE for a compressed body, naming its Content-Encoding; identity is no encoding", async () => {
    const body = gzipSync('{"window":[0,90]}');
    for (const encoding of ["gzip", "br", "GZIP, identity"]) {
      const response = await fetch(`${running.url}/api/v1/allow`, { method: "POST", headers: { "content-type": "application/json", "content-encoding": encoding }, body });
      expect(response.status).toBe(415);
      expect(await errorOf(response)).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE", message: expect.stringContaining(`Content-Encoding ${JSON.stringify(encoding)}`) });
    }
    const plain = await fetch(`${running.url}/api/v1/allow`, { method: "POST", headers: { "content-type": "application/json", "content-encoding": "Identity" }, body: '{"window":[0,90]}' });
    expect(plain.status).toBe(200);
  });

  it("429 RATE_LIMITED with Retry-After per address and per key", async () => {
    const limited = await startService({ rate_limit: { per_ip: { burst: 3, per_second: 0.5 }, per_key: { burst: 2, per_second: 0.5 } } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${limited.url}/api/v1/core/state`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const response = await fetch(`${limited.url}/api/v1/core/state`);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await errorOf(response)).code).toBe("RATE_LIMITED");

    const perKey = await startService({ rate_limit: { per_ip: { burst: 100, per_second: 100 }, per_key: { burst: 2, per_second: 0.5 } } });
    const auth = { authorization: `Bearer ${perKey.keys.developer}` };
    const keyed: number[] = [];
    for (let i = 0; i < 3; i++) keyed.push((await fetch(`${perKey.url}/api/v1/challenge`, { headers: auth })).status);
    expect(keyed).toEqual([200, 200, 429]);
    expect((await fetch(`${perKey.url}/api/v1/core/state`)).status).toBe(200); // the address still has tokens
  });

  it("counts X-Forwarded-For's rightmost untrusted address as the client only from a trusted proxy", async () => {
    const bucket = { burst: 1, per_second: 0.001 };
    const statusesFrom = async (url: string) => {
      const statuses: number[] = [];
      for (const forwarded of ["203.0.113.7", "198.51.100.9, 10.0.0.1", "203.0.113.7"]) {
        statuses.push((await fetch(`${url}/api/v1/core/state`, { headers: { "x-forwarded-for": forwarded } })).status);
      }
      return statuses;
    };
    const proxied = await startService({ trust_proxy: ["127.0.0.1"], rate_limit: { per_ip: bucket, per_key: bucket } });
    expect(await statusesFrom(proxied.url)).toEqual([200, 200, 429]);
    const direct = await startService({ trust_proxy: [], rate_limit: { per_ip: bucket, per_key: bucket } });
    expect(await statusesFrom(direct.url)).toEqual([200, 429, 429]);
  });

  it("paths: escapes of ordinary characters are decoded, an escaped slash is not a separator, a broken escape is 400 INVALID_URL", async () => {
    expect((await fetch(`${running.url}/api/v1/%63ore/state`)).status).toBe(200);
    const slash = await fetch(`${running.url}/api/v1/core%2Fstate`);
    expect([slash.status, (await errorOf(slash)).code]).toEqual([404, "NOT_FOUND"]);
    for (const path of ["/api/v1/core/state%ZZ", "/api/v1/%FF/state", "/v1/core/%E2%82"]) {
      const broken = await fetch(`${running.url}${path}`);
      expect([broken.status, (await errorOf(broken)).code], path).toEqual([400, "INVALID_URL"]);
    }
  });

  it("a body that arrives in pieces, with Content-Length or chunked, is answered once whole, and once", async () => {
    const body = '{"window":[0,360],"zone":"Z1"}';
    const port = Number(new URL(running.url).port);
    for (const framing of ["length", "chunked"] as const) {
      const socket = connect(port, "127.0.0.1");
      await once(socket, "connect");
      let received = "";
      socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
      const head = framing === "length" ? `Content-Length: ${body.length}` : "Transfer-Encoding: chunked";
      socket.write(`POST /api/v1/allow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${head}\r\n\r\n`);
      for (const piece of [body.slice(0, 10), body.slice(10)]) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        // Nothing is answered before the whole body is in.
        expect(received).toBe("");
        socket.write(framing === "length" ? piece : `${piece.length.toString(16)}\r\n${piece}\r\n`);
      }
      if (framing === "chunked") socket.write("0\r\n\r\n");
      // Until the reply is whole (its head and Content-Length bytes), then a moment for a second one that must not come.
      const whole = () => {
        const end = received.indexOf("\r\n\r\n");
        const length = /content-length: (\d+)/i.exec(received);
        return end !== -1 && length !== null && received.length >= end + 4 + Number(length[1]);
      };
      for (const started = Date.now(); !whole() && Date.now() - started < 10_000;) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
      expect(received.match(/^HTTP\/1\.1 /gm)).toHaveLength(1);
      expect(received).toMatch(/^HTTP\/1\.1 200 /);
      expect(JSON.parse(received.slice(received.indexOf("\r\n\r\n") + 4))).toMatchObject({ allow: true });
    }
  });

  it("a client that goes away mid-body leaves the service serving, and does not hold up its close", async () => {
    const abandoned = await startService();
    for (let i = 0; i < 5; i++) {
      const socket = connect(Number(new URL(abandoned.url).port), "127.0.0.1");
      await once(socket, "connect");
      socket.write('POST /api/v1/allow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"window":');
      await new Promise((resolve) => setTimeout(resolve, 20));
      socket.destroy();
    }
    const after = await fetch(`${abandoned.url}/api/v1/allow`, { method: "POST", headers: json, body: '{"window":[0,360]}' });
    expect(after.status).toBe(200);
    await abandoned.service.close();
  });

  it("503 SHUTTING_DOWN for a request that arrives on an open connection while closing, after the one in flight is answered", async () => {
    const closing = await startService();
    const socket = connect(Number(new URL(closing.url).port), "127.0.0.1");
    await once(socket, "connect");
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    const ended = once(socket, "close");
    const body = JSON.stringify({ window: [0, 360] });
    // The server answers 100 Continue once it has taken the request, so close() below starts with it in flight.
    socket.write(`POST /api/v1/allow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`);
    while (!received.includes("100 Continue")) await once(socket, "data");
    const closed = closing.service.close();
    socket.write(`${body}GET /api/v1/core/state HTTP/1.1\r\nHost: x\r\n\r\n`);
    await ended;
    await closed;
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([100, 200, 503]);
    const last = received.slice(received.lastIndexOf("HTTP/1.1 503"));
    expect(last.toLowerCase()).toContain("connection: close");
    expect(last.toLowerCase()).toContain("retry-after: 1");
    expect(JSON.parse(last.slice(last.indexOf("\r\n\r\n") + 4))).toMatchObject({ error: { code: "SHUTTING_DOWN" } });
  });
});
