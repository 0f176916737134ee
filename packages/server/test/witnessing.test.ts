/**
 * Witnessing through the service (docs/witness.md, docs/service.md): the
 * config's `witnessing` section checked at load, a real service with three
 * witnesses on loopback (in process: the witness as a process is tested in
 * packages/witness), the HTTP client's anchor that waits for FINAL, the
 * status's BFT state, the state kept in the home, and a hand-written mission
 * whose anchor step asks for a quorum.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  MemorySigner,
  authorityVerifierKey,
  contextAt,
  createClient,
  createCosigner,
  createTsaeRequest,
  defineMission,
  sha256Hex,
  tileVerifierKey,
  type MissionSpec,
  type WitnessingStatus,
} from "@temporal/agent-sdk";
import { REPLIES } from "@temporal/agent-sdk/service";
import { startInProcessWitnesses, type InProcessWitnesses } from "@temporal/witness/testing";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, createApiKey, createService, loadConfigFile, type TemporalService } from "../src/index.js";
import { tempDir } from "./helpers.js";

const AUTHORITY_NAME = "service.quorum.test";
const AT = Date.UTC(2026, 3, 2, 10);
const CONTEXT = contextAt(AT, { zone: 2 });

describe("the config's witnessing section", () => {
  const load = async (witnessing: unknown) => {
    const path = join(await tempDir(), "config.json");
    await writeFile(path, JSON.stringify({ witnessing }));
    return loadConfigFile(path, false);
  };
  const vkey = (name: string) => createCosigner(name, new Uint8Array(32).fill(7), async () => new Uint8Array(64)).vkey;

  it("gives the SDK's options, and none for null", async () => {
    const witnessing = { witnesses: [{ url: "http://127.0.0.1:7380", vkey: vkey("w.test/1") }], quorum: 1, interval_ms: 200 };
    expect((await load(witnessing)).witnessing).toEqual({ witnesses: witnessing.witnesses, quorum: 1, intervalMs: 200, requestTimeoutMs: undefined });
    expect((await load(null)).witnessing).toBeUndefined();
    const timed = { ...witnessing, request_timeout_ms: 3000, backoff_max_ms: 60_000 };
    expect((await load(timed)).witnessing).toEqual({ witnesses: witnessing.witnesses, quorum: 1, intervalMs: 200, requestTimeoutMs: 3000, backoffMaxMs: 60_000 });
  });

  it("refuses a backoff_max_ms that is not a whole number of ms in 1..3600000, naming the field", async () => {
    const witnessing = { witnesses: [{ url: "http://127.0.0.1:7380", vkey: vkey("w.test/1") }], quorum: 1 };
    for (const bad of [0, -5, 2.5, "10s", null, 3_600_001]) {
      const refused = load({ ...witnessing, backoff_max_ms: bad });
      await expect(refused).rejects.toMatchObject({ code: "INVALID_SERVICE_CONFIG", message: expect.stringMatching(/is invalid: .*witnessing.*backoff_max_ms/) });
    }
  });

  it("refuses a quorum above the witnesses, a log key for a witness key, a witness twice and a missing field, naming each", async () => {
    const one = [{ url: "http://127.0.0.1:7380", vkey: vkey("w.test/1") }];
    await expect(load({ witnesses: one, quorum: 2 })).rejects.toMatchObject({
      code: "INVALID_SERVICE_CONFIG",
      message: expect.stringContaining("needs 2 cosignatures, 1 witness is configured"),
    });
    const logKey = authorityVerifierKey(new Uint8Array(32).fill(7), "log.test");
    await expect(load({ witnesses: [{ url: "http://127.0.0.1:1", vkey: logKey }], quorum: 1 })).rejects.toThrow(/witnesses\[0\]\.vkey of log\.test is not a cosignature\/v1/);
    await expect(load({ witnesses: [...one, ...one], quorum: 1 })).rejects.toThrow(/names witness w\.test\/1 a second time/);
    await expect(load({ witnesses: one })).rejects.toThrow(/witnessing must have required property 'quorum'|quorum/);
  });
});

describe("a service with 3 witnesses, quorum 2", { timeout: 30_000 }, () => {
  const signer = new MemorySigner();
  let running: InProcessWitnesses | undefined;
  let service: TemporalService;
  let home: string;
  let url: string;
  let apiKey: string;

  beforeAll(async () => {
    const { verifying } = await signer.load();
    const tileKey = tileVerifierKey(authorityVerifierKey(verifying.jwk, AUTHORITY_NAME), CONTEXT.tile_id);
    running = await startInProcessWitnesses(await tempDir(), ["witness.test/s1", "witness.test/s2", "witness.test/s3"], [tileKey]);
    const witnesses = running.witnesses.map(({ url, vkey }) => ({ url, vkey }));
    home = await tempDir();
    const { key, record } = createApiKey("enterprise", "witnessing test", new Date(0));
    apiKey = key;
    service = createService({
      home,
      signer,
      config: { ...DEFAULT_CONFIG, keys: [record], authority_name: AUTHORITY_NAME },
      witnessing: { witnesses, quorum: 2, intervalMs: 50 },
    });
    url = await service.listen({ host: "127.0.0.1", port: 0 });
  });

  afterAll(async () => {
    await service?.close();
    await running?.close();
  });

  it("the client's anchor waits for FINAL; status shows the witnesses; the home keeps the cosigned checkpoint", async () => {
    const client = createClient({ baseUrl: url, apiKey });
    const receipt = await client.issueReceipt(createTsaeRequest(CONTEXT, { scope: "test.service_quorum.v1", action_hash_hex: sha256Hex("service 1") }));
    const proof = await client.anchor(receipt, { quorum: 2, timeoutMs: 10_000 });
    expect(proof.finality).toBe("FINAL");
    expect(proof.witnessed?.checkpoint.cosignatures.length).toBeGreaterThanOrEqual(2);
    await expect(client.anchor(receipt, { quorum: 4 })).rejects.toMatchObject({
      status: 400,
      code: "QUORUM_UNREACHABLE",
      message: expect.stringContaining("needs 4 cosignatures, 3 witnesses are configured"),
    });

    let status: WitnessingStatus | undefined;
    for (let i = 0; i < 200 && status?.health !== "HEALTHY"; i++) {
      status = (await client.getClockchainStatus()).witnessing;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // The replies are what the OpenAPI document says.
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validate(REPLIES.anchorProof, proof), ajv.errorsText()).toBe(true);
    expect(ajv.validate(REPLIES.status, await client.getClockchainStatus()), ajv.errorsText()).toBe(true);
    expect(status).toMatchObject({
      quorum: 2,
      health: "HEALTHY",
      forks: [],
      tiles: [{ tile_id: CONTEXT.tile_id, tree_size: 1, final_size: 1, quorum_met: true, cosigned: expect.objectContaining({ tree_size: 1 }) }],
    });
    expect(status?.witnesses.map((witness) => witness.tiles)).toEqual([1, 2, 3].map(() => [expect.objectContaining({ tile_id: CONTEXT.tile_id, cosigned_size: 1 })]));
    // Saved after each witness's answer, asynchronously: read until the save that holds the final checkpoint landed.
    let saved: { cosigned: { tree_size: number }[] } = { cosigned: [] };
    for (let i = 0; i < 200 && saved.cosigned.length === 0; i++) {
      saved = JSON.parse(await readFile(join(home, "witnessing.json"), "utf8").catch(() => '{"cosigned":[]}')) as typeof saved;
      if (saved.cosigned.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(saved.cosigned).toEqual([expect.objectContaining({ tile_id: CONTEXT.tile_id, tree_size: 1 })]);
  });

  it("a mission whose anchor step asks for quorum 2 runs through the client and ends FINAL", async () => {
    const spec: MissionSpec = {
      name: "witnessed",
      kernel_version: "4.6.2",
      zone: CONTEXT.swt_zone,
      requires: { phase: [], carbon: null, hs_bloch: null },
      check: () => [],
      on: { ALLOW: [{ execute: "work" }, { anchor: "clockchain", quorum: 2 }], DENY: [] },
    };
    const result = await defineMission(spec).run({
      sdk: createClient({ baseUrl: url, apiKey }),
      localClock: true,
      clock: () => AT,
      tasks: { work: () => undefined },
      finalityTimeoutMs: 10_000,
    });
    expect(result.executed).toEqual(["work"]);
    expect(result.anchors).toEqual([expect.objectContaining({ finality: "FINAL", witnessed: expect.objectContaining({ quorum: 2 }) })]);
  });
});
