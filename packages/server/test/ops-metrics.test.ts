import { describe, expect, it } from "vitest";
import { contextAt, createTsaeRequest, sha256Hex } from "@temporal/agent-sdk";
import { startService } from "./helpers.js";

/** One sample line of the Prometheus text format: a metric name, optional labels, a value. */
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/;

/** The samples of a Prometheus text exposition, keyed `name{labels}`; fails on any line that is not a comment or a sample. */
function parsePrometheus(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("# HELP ") || line.startsWith("# TYPE ")) continue;
    const match = SAMPLE.exec(line);
    expect(match, line).not.toBeNull();
    const [, name, labels = "", value] = match as RegExpExecArray;
    samples.set(`${name}${labels}`, Number(value));
  }
  return samples;
}

async function scrape(url: string): Promise<Map<string, number>> {
  const reply = await fetch(`${url}/metrics`);
  expect(reply.status).toBe(200);
  expect(reply.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return parsePrometheus(await reply.text());
}

describe("GET /metrics", () => {
  it("is Prometheus text whose request counters and latency histograms move with the requests, by route template and status", async () => {
    const { url } = await startService();
    const before = await scrape(url);
    expect(before.get('temporal_http_requests_total{route="/core/state",method="GET",status="200"}')).toBeUndefined();
    for (let i = 0; i < 3; i++) expect((await fetch(`${url}/api/v1/core/state?`)).status).toBe(200);
    expect((await fetch(`${url}/v1/core/state`)).status).toBe(200);
    expect((await fetch(`${url}/v1/challenge`)).status).toBe(401);
    expect((await fetch(`${url}/v1/no/such/thing?x=1`)).status).toBe(404);
    const after = await scrape(url);
    // Both prefixes and any query count under the one route template.
    expect(after.get('temporal_http_requests_total{route="/core/state",method="GET",status="200"}')).toBe(4);
    expect(after.get('temporal_http_requests_total{route="/challenge",method="GET",status="401"}')).toBe(1);
    expect(after.get('temporal_http_requests_total{route="unmatched",method="GET",status="404"}')).toBe(1);
    expect(after.get('temporal_http_request_duration_seconds_count{route="/core/state"}')).toBe(4);
    expect(after.get('temporal_http_request_duration_seconds_bucket{le="+Inf",route="/core/state"}')).toBe(4);
    // The scrape before this one is counted too: the operators' endpoints are requests like any other.
    expect(after.get('temporal_http_requests_total{route="/metrics",method="GET",status="200"}')).toBe(1);
  });

  it("counts rate-limit rejections by limit once a small burst is exceeded", async () => {
    const { url, keys } = await startService({ rate_limit: { per_ip: { burst: 1e9, per_second: 1e9 }, per_key: { burst: 2, per_second: 0.001 } } });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetch(`${url}/v1/context`, { headers: { authorization: `Bearer ${keys.developer}` } })).status);
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
    const samples = await scrape(url);
    expect(samples.get('temporal_rate_limit_rejections_total{limit="per_key"}')).toBe(3);
    expect(samples.get('temporal_http_requests_total{route="/context",method="GET",status="429"}')).toBe(3);
  });

  it("counts anchors, reports the tile's size and times the store's calls", async () => {
    const { url, keys } = await startService();
    const post = (path: string, body: unknown) =>
      fetch(`${url}${path}`, { method: "POST", headers: { authorization: `Bearer ${keys.enterprise}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    let tile = 0;
    for (let i = 0; i < 3; i++) {
      const request = createTsaeRequest(contextAt(Date.now(), { zone: 1 }), { scope: "test.metrics.v1", action_hash_hex: sha256Hex(`metrics ${i}`) });
      const receipt = await (await post("/v1/security/tsae", request)).json();
      const anchored = await post("/v1/clockchain/anchor", { receipt });
      expect(anchored.status).toBe(200);
      tile = ((await anchored.json()) as { tile_id: number }).tile_id;
    }
    const samples = await scrape(url);
    expect(samples.get("temporal_anchors_appended_total")).toBe(3);
    expect(samples.get(`temporal_tile_size_leaves{tile="${tile}"}`)).toBe(3);
    expect(samples.get('temporal_store_operation_duration_seconds_count{operation="append"}')).toBe(3);
  });

  it("belongs to its service: two services in one process keep their own counts", async () => {
    const [first, second] = [await startService(), await startService()];
    for (let i = 0; i < 2; i++) await fetch(`${first.url}/v1/context`);
    await fetch(`${second.url}/v1/context`);
    const route = 'temporal_http_requests_total{route="/context",method="GET",status="200"}';
    expect([(await scrape(first.url)).get(route), (await scrape(second.url)).get(route)]).toEqual([2, 1]);
  });
});
