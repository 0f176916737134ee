import { existsSync } from "node:fs";
import { mkdir, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { startService } from "../../server/test/helpers.js";
import { allow, createClient, verifyInclusion } from "../src/core/index.js";
import { AuthorityUnavailableError, defineMission, type MissionSpec, type Task } from "../src/mission/index.js";
import { defaultSdk } from "../src/node/default-sdk.js";
import { createLocalAuthority } from "../src/node/local-authority.js";
import { closedPort, tempDir } from "./helpers.js";

const NIGHT = Date.UTC(2026, 10, 22, 23, 30);

/** A mission that writes a marker file and then anchors its receipt, in zone Z1 between 20:00 and 02:00 local. */
function anchoring(name = "backup", blocks: MissionSpec["on"] = { ALLOW: [{ execute: "mark" }, { anchor: "clockchain" }], DENY: [{ anchor: "clockchain" }] }): MissionSpec {
  return {
    name,
    kernel_version: "4.6.2",
    zone: 1,
    requires: { phase: [[300, 30]], carbon: null, hs_bloch: null },
    check: (ctx) => (allow(ctx, [300, 30]) ? [] : ["PHASE_OUTSIDE_WINDOW"]),
    on: blocks,
  };
}
const mission = defineMission(anchoring());
const scratch = await tempDir();
let markers = 0;

/** A task writing a fresh marker file, and that file's path. */
function marker(): { path: string; tasks: { mark: Task } } {
  const path = join(scratch, `marker-${++markers}`);
  return { path, tasks: { mark: () => writeFile(path, "ran") } };
}

async function failureOf(pending: Promise<unknown>): Promise<AuthorityUnavailableError> {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthorityUnavailableError);
  expect(error).toMatchObject({ code: "AUTHORITY_UNAVAILABLE", mission: "backup", message: expect.stringMatching(/No task ran\.$/) });
  return error as AuthorityUnavailableError;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("a local authority that cannot anchor stops the run before its first task", () => {
  it("when the home cannot be created (a file stands where its folder should be; this fails for root too)", async () => {
    const file = join(scratch, "not-a-folder");
    await writeFile(file, "");
    const sdk = createLocalAuthority({ home: join(file, "home") });
    const { path, tasks } = marker();
    const error = await failureOf(mission.run({ clock: () => NIGHT, sdk, tasks }));
    expect(error.cause).toMatchObject({ code: "DIRECTORY_NOT_CREATED", reason: "ENOTDIR", path: file });
    expect(error.message).toContain("its local authority cannot issue and anchor receipts");
    expect(error.message).toContain("the home must be a folder this process can create and write");
    expect(existsSync(path)).toBe(false);
  });

  it("when the ledger is corrupt", async () => {
    const home = join(scratch, "corrupt");
    const first = createLocalAuthority({ home });
    const setup = marker();
    await mission.run({ clock: () => NIGHT, sdk: first, tasks: setup.tasks });
    await mission.run({ clock: () => NIGHT + 1, sdk: first, tasks: setup.tasks });
    await first.close();
    // Flip a byte of the first record: damage that is not a torn tail, which opening would repair.
    const ledger = join(home, "clockchain.log");
    const handle = await open(ledger, "r+");
    const bytes = await readFile(ledger);
    await handle.write(Buffer.from([(bytes[40] as number) ^ 1]), 0, 1, 40);
    await handle.close();
    // Closing saved a snapshot that vouches for both records; without it, opening replays them and finds the damage.
    await rm(join(home, "clockchain.snapshot"));
    const sdk = createLocalAuthority({ home });
    const { path, tasks } = marker();
    try {
      const error = await failureOf(mission.run({ clock: () => NIGHT + 2, sdk, tasks }));
      expect(error.cause).toMatchObject({ code: "LEDGER_CORRUPT" });
      expect(error.message).toContain("move it aside");
      expect(existsSync(path)).toBe(false);
      expect((await stat(ledger)).size).toBe(bytes.length);
    } finally {
      await sdk.close();
    }
  });

  it("when the signing key cannot be loaded", async () => {
    const home = join(scratch, "bad-key");
    await mkdir(home);
    await writeFile(join(home, "signing-key.pem"), "not a key\n");
    const sdk = createLocalAuthority({ home });
    const { path, tasks } = marker();
    try {
      const error = await failureOf(mission.run({ clock: () => NIGHT, sdk, tasks }));
      expect(error.cause).toMatchObject({ code: "KEY_INVALID" });
      expect(existsSync(path)).toBe(false);
    } finally {
      await sdk.close();
    }
  });

  it("when the time is before 1970, which no receipt can record", async () => {
    const sdk = createLocalAuthority({ home: join(scratch, "pre-1970") });
    const { path, tasks } = marker();
    try {
      const error = await failureOf(mission.run({ clock: () => Date.UTC(1969, 11, 31, 23, 30), sdk, tasks }));
      expect(error.cause).toMatchObject({ code: "TSAE_REQUEST_INVALID" });
      expect(error.message).toContain("a receipt cannot record its time, 1969-12-31T23:30:00.000Z");
      expect(existsSync(path)).toBe(false);
    } finally {
      await sdk.close();
    }
  });

  it("but a block that anchors nothing runs without touching the authority", async () => {
    const file = join(scratch, "also-not-a-folder");
    await writeFile(file, "");
    const { path, tasks } = marker();
    const unanchored = defineMission(anchoring("backup", { ALLOW: [{ execute: "mark" }], DENY: [] }));
    const result = await unanchored.run({ clock: () => NIGHT, sdk: createLocalAuthority({ home: join(file, "home") }), tasks });
    expect(result.executed).toEqual(["mark"]);
    expect(existsSync(path)).toBe(true);
  });
});

// The service's clock runs six hours ahead of this machine's, so its time is recognisable.
const AHEAD_MS = 6 * 3_600_000;
const running = await startService({}, { clock: () => Date.now() + AHEAD_MS });

describe("with a remote authority", () => {
  const clients: { close(): Promise<void> }[] = [];
  afterAll(() => Promise.all(clients.map((client) => client.close())));
  const client = (apiKey?: string, baseUrl = running.url) => {
    const made = createClient({ baseUrl, retries: 0, ...(apiKey === undefined ? {} : { apiKey }) });
    clients.push(made);
    return made;
  };

  it("decides on the service's time (source remote), synced over twatch/now, and anchors there", async () => {
    const paths: string[] = [];
    const recording: typeof fetch = (url, init) => {
      paths.push(new URL(url instanceof Request ? url.url : url).pathname);
      return fetch(url, init);
    };
    const sdk = createClient({ baseUrl: running.url, retries: 0, apiKey: running.keys.enterprise, fetch: recording });
    clients.push(sdk);
    const before = Date.now();
    const result = await mission.run({ sdk, tasks: marker().tasks });
    // syncClock's NTP-style exchanges, not a single GET context.
    expect(paths.filter((path) => path.endsWith("/twatch/now")).length).toBeGreaterThanOrEqual(2);
    expect(paths.some((path) => path.endsWith("/context"))).toBe(false);
    expect(result.ctx.source).toBe("remote");
    expect(result.ctx.swt_zone).toBe(1);
    expect(result.ctx.unix_ms).toBeGreaterThanOrEqual(before + AHEAD_MS);
    expect(result.ctx.unix_ms).toBeLessThan(Date.now() + AHEAD_MS + 1000);
    expect(result.anchors).toHaveLength(1);
    expect(verifyInclusion(result.anchors[0]!)).toBe(true);
    expect(await sdk.getAnchorProof(result.anchors[0]!.receipt_hash)).toBeDefined();
  });

  it("takes the service from TEMPORAL_URL in evaluate() too", async () => {
    vi.stubEnv("TEMPORAL_URL", running.url);
    vi.stubEnv("TEMPORAL_API_KEY", "");
    try {
      const decision = await mission.evaluate();
      expect(decision.ctx.source).toBe("remote");
      expect(decision.ctx.unix_ms).toBeGreaterThan(Date.now() + AHEAD_MS - 60_000);
    } finally {
      await defaultSdk().close();
    }
  });

  it("still lets an explicit clock win, and localClock read this machine's", async () => {
    const sdk = client(running.keys.enterprise);
    expect((await mission.evaluate({ sdk, clock: () => NIGHT })).ctx).toMatchObject({ source: "local", unix_ms: NIGHT });
    const local = await mission.evaluate({ sdk, localClock: true });
    expect(local.ctx.source).toBe("local");
    expect(Math.abs(local.ctx.unix_ms - Date.now())).toBeLessThan(60_000);
  });

  it("stops before the first task when the service refuses the API key (401) or its tier cannot anchor (403)", async () => {
    for (const [apiKey, status, fix] of [
      ["not-a-key-the-service-knows", 401, "give an API key the service accepts"],
      [undefined, 401, "give an API key the service accepts"],
      [running.keys.managed, 403, "anchoring needs an API key of tier enterprise"],
    ] as const) {
      const { path, tasks } = marker();
      const error = await failureOf(mission.run({ clock: () => NIGHT, sdk: client(apiKey), tasks }));
      expect(error.cause, String(apiKey)).toMatchObject({ status });
      expect(error.message).toContain(fix);
      expect(existsSync(path)).toBe(false);
    }
  });

  it("stops before the first task when the service is unreachable, whether it was to tell the time or to anchor", async () => {
    const sdk = client(running.keys.enterprise, `http://127.0.0.1:${await closedPort()}`);
    for (const clock of [undefined, () => NIGHT]) {
      const { path, tasks } = marker();
      const error = await failureOf(mission.run({ sdk, tasks, ...(clock === undefined ? {} : { clock }) }));
      expect(error.cause).toMatchObject({ code: "NETWORK_ERROR" });
      expect(error.message).toContain(clock === undefined ? "the service could not tell the time" : "its remote authority cannot issue and anchor receipts");
      expect(error.message).toContain("start the service");
      expect(existsSync(path)).toBe(false);
    }
  });

  it("runs on the local clock with localClock when the service is down and the block anchors nothing", async () => {
    const sdk = client(running.keys.enterprise, `http://127.0.0.1:${await closedPort()}`);
    const unanchored = defineMission(anchoring("backup", { ALLOW: [{ execute: "mark" }], DENY: [{ execute: "mark" }] }));
    const { path, tasks } = marker();
    await failureOf(unanchored.run({ sdk, tasks }));
    expect(existsSync(path)).toBe(false);
    const result = await unanchored.run({ sdk, tasks, localClock: true });
    expect(result).toMatchObject({ executed: ["mark"], ctx: { source: "local" } });
    expect(existsSync(path)).toBe(true);
  });
});
