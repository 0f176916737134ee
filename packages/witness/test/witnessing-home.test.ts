/**
 * The log's witnessing with witnesses in process (their HTTP layer on
 * loopback, fast): the state kept in a home and verified again when it is
 * read back, the coded errors of the options and of a wait, and a mission
 * whose anchor step asks for a quorum it cannot get in time.
 */

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextAt, createCosigner, createMemoryAuthority, createTsaeRequest, defineMission, sha256Hex, tileVerifierKey, type Authority, type WitnessEndpoint } from "@temporal/agent-sdk";
import { createLocalAuthority } from "@temporal/agent-sdk/node";
import { startInProcessWitnesses, type InProcessWitnesses } from "../src/testing.js";

const AUTHORITY_NAME = "log.home.test";
const CONTEXT = contextAt(Date.UTC(2026, 4, 6, 12), { zone: 4 });
let counter = 0;
const anchorNew = async (authority: Authority, options?: { quorum?: number; timeoutMs?: number }) =>
  authority.anchor(await authority.issueReceipt(createTsaeRequest(CONTEXT, { scope: "test.witnessing_home.v1", action_hash_hex: sha256Hex(`home ${counter++}`) })), options);

describe("witnessing kept in a home, in-process witnesses", { timeout: 30_000 }, () => {
  let directory: string;
  let home: string;
  let witnesses: InProcessWitnesses | undefined;
  let endpoints: WitnessEndpoint[];
  const stopWitnesses = () => Promise.all(witnesses?.witnesses.map((witness) => witness.stop()) ?? []);

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "witnessing-home-"));
    home = join(directory, "home");
    // The home's key, made first: the witnesses are configured with its tile vkey.
    const bootstrap = createLocalAuthority({ home, authorityName: AUTHORITY_NAME });
    const [authorityKey] = Object.values(await bootstrap.noteVerifierKeys());
    await bootstrap.close();
    const tileKey = tileVerifierKey(authorityKey as string, CONTEXT.tile_id);
    witnesses = await startInProcessWitnesses(join(directory, "witnesses"), ["witness.test/h1", "witness.test/h2", "witness.test/h3"], [tileKey]);
    endpoints = witnesses.witnesses.map(({ url, vkey }) => ({ url, vkey }));
  });

  afterAll(async () => {
    await witnesses?.close();
    await rm(directory, { recursive: true, force: true });
  });

  const open = (witnesses = endpoints) => createLocalAuthority({ home, authorityName: AUTHORITY_NAME, witnessing: { witnesses, quorum: 2, intervalMs: 20, requestTimeoutMs: 1_000 } });

  it("a quorum asked below the configured one is raised to it: one cosignature of k=2 is not FINAL", async () => {
    // The second witness's URL answers nothing (port 9, discard): only the first can cosign.
    const authority = open([endpoints[0] as WitnessEndpoint, { url: "http://127.0.0.1:9/", vkey: (endpoints[1] as WitnessEndpoint).vkey }]);
    try {
      await expect(anchorNew(authority, { quorum: 1, timeoutMs: 500 })).rejects.toMatchObject({ code: "FINALITY_TIMEOUT" });
    } finally {
      await authority.close();
    }
  });

  it("a FINAL proof stays FINAL after a restart with the witnesses gone; a damaged cosignature in the file is not trusted", async () => {
    const authority = open();
    const final = await anchorNew(authority, { quorum: 2, timeoutMs: 10_000 });
    expect(final.finality).toBe("FINAL");
    await authority.close();

    await stopWitnesses();
    const reopened = open();
    const again = await reopened.getAnchorProof(final.receipt_hash);
    expect(again).toMatchObject({ finality: "FINAL", witnessed: { quorum: 2, checkpoint: { tree_size: final.witnessed?.checkpoint.tree_size } } });
    await reopened.close();

    // Fields that are not their note's, and a fork of the wrong shape: dropped on open, and reported.
    const path = join(home, "witnessing.json");
    const original = await readFile(path, "utf8");
    const edited = JSON.parse(original) as { cosigned: { root_hash: string }[]; forks: unknown[] };
    for (const cosigned of edited.cosigned) cosigned.root_hash = "00".repeat(32);
    edited.forks.push({ tile_id: "one" });
    await writeFile(path, JSON.stringify(edited));
    const tampered = open();
    expect((await tampered.getAnchorProof(final.receipt_hash))?.finality).toBe("PROVISIONAL");
    expect((await tampered.clockchainStatus()).witnessing).toMatchObject({
      forks: [],
      restore_dropped: [expect.stringMatching(/^forks: an entry is not/), expect.stringMatching(/^cosigned: the entry of tile \d+ is not a signed checkpoint whose/)],
    });
    await tampered.close();
    await writeFile(path, original);

    // Flip one character of every cosignature line: opening verifies them again and keeps none.
    const saved = JSON.parse(await readFile(path, "utf8")) as { cosigned: { note: string }[] };
    for (const cosigned of saved.cosigned) cosigned.note = cosigned.note.replace(/(— witness\.test\/h\d \S{10})(\S)/g, (_, head: string, c: string) => head + (c === "A" ? "B" : "A"));
    await writeFile(path, JSON.stringify(saved));
    const damaged = open();
    expect((await damaged.getAnchorProof(final.receipt_hash))?.finality).toBe("PROVISIONAL");
    // The latest checkpoint is submitted again on open, to witnesses that are gone.
    let status = (await damaged.clockchainStatus()).witnessing;
    for (let i = 0; i < 200 && status?.health !== "STALLED"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      status = (await damaged.clockchainStatus()).witnessing;
    }
    expect(status).toMatchObject({ health: "STALLED", tiles: [{ tile_id: CONTEXT.tile_id, final_size: 0 }] });
    await damaged.close();
  });

  it("a mission whose anchor cannot become FINAL in time fails ANCHOR_FAILED with the provisional proof; a quorum above the witnesses is refused before anything runs", async () => {
    // The witnesses' keys at URLs that answer nothing (port 9, discard): nothing becomes FINAL, whatever the tests before did.
    const gone = endpoints.map(({ vkey }, i) => ({ url: `http://127.0.0.1:9/gone${i}`, vkey }));
    const authority = createMemoryAuthority({ witnessing: { witnesses: gone, quorum: 2, intervalMs: 20, requestTimeoutMs: 500 } });
    const mission = (quorum: number) =>
      defineMission({
        name: "witnessed",
        kernel_version: "4.6.2",
        zone: CONTEXT.swt_zone,
        requires: { phase: [], carbon: null, hs_bloch: null },
        check: () => [],
        on: { ALLOW: [{ anchor: "clockchain", quorum }], DENY: [] },
      });
    try {
      const late = await mission(2)
        .run({ sdk: authority, clock: () => Date.UTC(2026, 4, 6, 12), finalityTimeoutMs: 200 })
        .catch((error: unknown) => error);
      expect(late).toMatchObject({ code: "ANCHOR_FAILED", cause: { code: "FINALITY_TIMEOUT" }, anchors: [{ finality: "PROVISIONAL" }] });
      const over = await mission(4)
        .run({ sdk: authority, clock: () => Date.UTC(2026, 4, 6, 12) })
        .catch((error: unknown) => error);
      // Known before anything runs: no task, no receipt.
      expect(over).toMatchObject({ code: "AUTHORITY_UNAVAILABLE", cause: { code: "QUORUM_UNREACHABLE", message: "needs 4 cosignatures, 3 witnesses are configured" } });
      expect((over as Error).message).toContain("needs 4 cosignatures, 3 witnesses are configured");
    } finally {
      await authority.close();
    }
  });
});

describe("witnessing options and waits", () => {
  const vkey = createCosigner("w.test/1", new Uint8Array(32).fill(1), async () => new Uint8Array(64)).vkey;

  it("refuses bad options with INVALID_WITNESSING or QUORUM_UNREACHABLE, naming the field", () => {
    expect(() => createMemoryAuthority({ witnessing: { witnesses: [], quorum: 1 } })).toThrow(expect.objectContaining({ code: "INVALID_WITNESSING" }));
    expect(() => createMemoryAuthority({ witnessing: { witnesses: [{ url: "ftp://w", vkey }], quorum: 1 } })).toThrow(/witnesses\[0\]\.url ftp:\/\/w\/? is not http/);
    expect(() => createMemoryAuthority({ witnessing: { witnesses: [{ url: "http://w", vkey }], quorum: 0 } })).toThrow(/quorum must be a positive integer/);
    expect(() => createMemoryAuthority({ witnessing: { witnesses: [{ url: "http://w", vkey }], quorum: 2 } })).toThrow(
      expect.objectContaining({ code: "QUORUM_UNREACHABLE", message: "needs 2 cosignatures, 1 witness is configured" }),
    );
    expect(() => createMemoryAuthority({ witnessing: { witnesses: [{ url: "http://w", vkey }], quorum: 1, intervalMs: 0 } })).toThrow(/intervalMs must be an integer/);
  });

  it("refuses one key under two names and one URL twice: each would count twice towards the quorum", () => {
    const sameKey = createCosigner("w.test/2", new Uint8Array(32).fill(1), async () => new Uint8Array(64)).vkey;
    const otherKey = createCosigner("w.test/3", new Uint8Array(32).fill(3), async () => new Uint8Array(64)).vkey;
    expect(() =>
      createMemoryAuthority({
        witnessing: {
          witnesses: [
            { url: "http://w1", vkey },
            { url: "http://w2", vkey: sameKey },
          ],
          quorum: 2,
        },
      }),
    ).toThrow(expect.objectContaining({ code: "INVALID_WITNESSING", message: expect.stringMatching(/witnesses\[1\]\.vkey of w\.test\/2 has the public key of another/) }));
    expect(() =>
      createMemoryAuthority({
        witnessing: {
          witnesses: [
            { url: "http://W1:80/", vkey },
            { url: "http://w1", vkey: otherKey },
          ],
          quorum: 2,
        },
      }),
    ).toThrow(expect.objectContaining({ code: "INVALID_WITNESSING", message: expect.stringMatching(/witnesses\[1\]\.url http:\/\/w1\/ is the URL of another/) }));
  });

  it("saves its state only when a round changed it, not every round a witness stays down", async () => {
    let saves = 0;
    const store = { load: () => Promise.resolve(undefined), save: () => Promise.resolve(void saves++) };
    // Port 9 (discard) answers nothing: every round fails and changes no saved state.
    const authority = createMemoryAuthority({ witnessing: { witnesses: [{ url: "http://127.0.0.1:9/", vkey }], quorum: 1, intervalMs: 10, requestTimeoutMs: 100, store } });
    try {
      await anchorNew(authority);
      let failedPolls = 0;
      for (let i = 0; i < 100 && failedPolls < 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if ((await authority.clockchainStatus()).witnessing?.witnesses[0]?.last_error !== null) failedPolls++;
      }
      expect(failedPolls).toBe(5);
      expect(saves).toBe(1);
    } finally {
      await authority.close();
    }
  });

  it("without witnesses, a wait for a quorum is QUORUM_UNREACHABLE and nothing is anchored; a proof has no finality", async () => {
    const authority = createMemoryAuthority();
    try {
      await expect(anchorNew(authority, { quorum: 1 })).rejects.toMatchObject({ code: "QUORUM_UNREACHABLE", message: "needs 1 cosignature, 0 witnesses are configured" });
      await expect(anchorNew(authority, { quorum: 1.5 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      expect((await authority.clockchainStatus()).anchors).toBe(0);
      const proof = await anchorNew(authority);
      expect(proof.finality).toBeUndefined();
      expect((await authority.clockchainStatus()).witnessing).toBeUndefined();
    } finally {
      await authority.close();
    }
  });
});
