/**
 * The service's ZTT window (docs/service.md, POST /ztt/sign): the config file's `ztt`, the --ztt-window and
 * --ztt-zone flags of the real command, and one signer for the whole life of a service, reconfigured or not.
 * The endpoints' answers are in client.test.ts (real service and stand-in alike).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { verifyZtt, type ZttBundle } from "@temporal/agent-sdk";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, loadConfigFile } from "../src/index.js";
import { withZttFlags } from "../src/ztt-config.js";
import { startService, tempDir } from "./helpers.js";
import { runCommand, startServiceProcess } from "./service-process.js";

/** 2026-11-22T21:30Z: Z1 is at phase 352.5, inside [330, 30]. */
const T = Date.UTC(2026, 10, 22, 21, 30);

async function configFile(body: unknown): Promise<string> {
  const path = join(await tempDir(), "service.json");
  await writeFile(path, JSON.stringify(body));
  return path;
}

async function sign(url: string, key: string, payload: string): Promise<Response> {
  return fetch(`${url}/api/v1/ztt/sign`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: JSON.stringify({ payload }) });
}

describe("the ztt config", () => {
  it("reads the window and zone, Z0 by default, and refuses a window outside 0..360 or a bad zone, naming the field", async () => {
    expect((await loadConfigFile(await configFile({ ztt: { window: [330, 30], zone: "Z1" } }), false)).config.ztt).toEqual({ window: [330, 30], zone: "Z1" });
    expect((await loadConfigFile(await configFile({ ztt: { window: [0, 360] } }), false)).config.ztt).toEqual({ window: [0, 360], zone: 0 });
    expect((await loadConfigFile(await configFile({}), false)).config.ztt).toBeNull();
    await expect(loadConfigFile(await configFile({ ztt: { window: [0, 400] } }), false)).rejects.toMatchObject({
      code: "INVALID_SERVICE_CONFIG",
      message: expect.stringContaining("ztt.window[1] must be <= 360"),
    });
    await expect(loadConfigFile(await configFile({ ztt: { window: [0, 90], zone: "Z12" } }), false)).rejects.toMatchObject({ message: expect.stringContaining("ztt.zone must") });
    await expect(loadConfigFile(await configFile({ ztt: { zone: 3 } }), false)).rejects.toMatchObject({ message: expect.stringContaining("ztt.window is required") });
  });

  it("--ztt-window and --ztt-zone override the file; a zone alone needs a window from somewhere", () => {
    const file = { ...DEFAULT_CONFIG, ztt: { window: [100, 200] as [number, number], zone: 4 } };
    expect(withZttFlags(file, {}).ztt).toEqual({ window: [100, 200], zone: 4 });
    expect(withZttFlags(file, { zttWindow: [330, 30] }).ztt).toEqual({ window: [330, 30], zone: 4 });
    expect(withZttFlags(file, { zttZone: "Z1" }).ztt).toEqual({ window: [100, 200], zone: "Z1" });
    expect(withZttFlags(DEFAULT_CONFIG, { zttWindow: [330, 30] }).ztt).toEqual({ window: [330, 30], zone: 0 });
    expect(() => withZttFlags(DEFAULT_CONFIG, { zttZone: 1 })).toThrow(/--ztt-zone needs a window/);
  });
});

describe("one ZTT signer per service", () => {
  it("keeps its opening's ephemeral key across a reconfigure, which reports a changed ztt as taking effect at the next start", async () => {
    const running = await startService({ ztt: { window: [330, 30], zone: "Z1" } }, { clock: () => T });
    const first = (await (await sign(running.url, running.keys.managed, "one")).json()) as ZttBundle;
    expect(running.service.reconfigure(running.config)).toEqual([]);
    const second = (await (await sign(running.url, running.keys.managed, "two")).json()) as ZttBundle;
    expect(second.key_id).toBe(first.key_id);
    expect(second.certificate).toEqual(first.certificate);
    expect(running.service.reconfigure({ ...running.config, ztt: { window: [0, 90], zone: 0 } })).toEqual(["ztt"]);
    const third = (await (await sign(running.url, running.keys.managed, "three")).json()) as ZttBundle;
    expect(third.certificate.window_deg).toEqual([330, 30]);
  });
});

describe("the window's openings", () => {
  it("signs in an opening, answers 409 with the next opening once it closed, and certifies a new key for the next one", async () => {
    let now = T;
    const running = await startService({ ztt: { window: [330, 30], zone: "Z1" } }, { clock: () => now });
    const first = (await (await sign(running.url, running.keys.managed, "in")).json()) as ZttBundle;
    // Z1's opening of day 20779 ends at 24:00 UTC; one millisecond later it is closed until 20:00 UTC the next day.
    now = first.certificate.end_unix_ms + 1;
    const closed = await sign(running.url, running.keys.managed, "late");
    expect(closed.status).toBe(409);
    const nextOpen = first.certificate.start_unix_ms + 86_400_000;
    expect(((await closed.json()) as { error: { code: string; next_open_unix_ms: number } }).error).toMatchObject({ code: "ZTT_WINDOW_CLOSED", next_open_unix_ms: nextOpen });
    expect(closed.headers.get("retry-after")).toBe(String(Math.ceil((nextOpen - now) / 1000)));
    now = nextOpen;
    const next = (await (await sign(running.url, running.keys.managed, "next day")).json()) as ZttBundle;
    expect(next.certificate.day_index).toBe(first.certificate.day_index + 1);
    expect(next.key_id).not.toBe(first.key_id);
  });
});

describe("payloads", () => {
  it("a text payload with a lone surrogate is 400 VALIDATION_FAILED on body.payload, in ztt/sign and ztt/verify: its UTF-8 would be another text's", async () => {
    const running = await startService({ ztt: { window: [0, 360], zone: "Z0" } });
    // JSON.stringify writes a lone surrogate as the escape "\ud800", which JSON.parse reads back as the lone surrogate.
    const signed = await sign(running.url, running.keys.managed, "\ud800");
    expect(signed.status).toBe(400);
    expect(((await signed.json()) as { error: unknown }).error).toMatchObject({
      code: "VALIDATION_FAILED",
      details: [{ field: "body.payload", problem: expect.stringContaining("lone surrogate at index 0") }],
    });
    // Well-formed text outside the BMP (a surrogate pair) is signed, and verifies with its own text only.
    const bundle = (await (await sign(running.url, running.keys.managed, "\u{1F600}")).json()) as ZttBundle;
    const verify = (payload: string) =>
      fetch(`${running.url}/api/v1/ztt/verify`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ bundle, payload }) });
    expect(((await (await verify("\u{1F600}")).json()) as { valid: boolean }).valid).toBe(true);
    const lone = await verify("\ud83d");
    expect([lone.status, ((await lone.json()) as { error: { code: string } }).error.code]).toEqual([400, "VALIDATION_FAILED"]);
  });
});

describe("temporal-service --ztt-window", () => {
  it("signs with the home's key, verifiable with GET keys alone; a bad flag is a usage error (exit 2)", async () => {
    const home = await tempDir();
    const config = join(home, "service.json");
    const created = runCommand(["keys", "create", "--tier", "managed", "--home", home]);
    expect(created.status).toBe(0);
    const key = created.stdout.trim();
    const service = await startServiceProcess(["--port", "0", "--home", home, "--config", config, "--ztt-window", "0,360", "--ztt-zone", "Z7"]);
    try {
      const reply = await sign(service.url, key, "from the command");
      expect(reply.status).toBe(200);
      const bundle = (await reply.json()) as ZttBundle;
      expect(bundle.certificate).toMatchObject({ window_deg: [0, 360], swt_zone: 7 });
      const { keys } = (await (await fetch(`${service.url}/api/v1/keys`)).json()) as { keys: Record<string, unknown> };
      expect(await verifyZtt(bundle, Object.values(keys) as never, { payload: "from the command" })).toMatchObject({ valid: true });
    } finally {
      await service.stop();
    }
    const bad = runCommand(["--home", home, "--ztt-window", "0,400"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("a window is two phases in degrees 0..360");
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
