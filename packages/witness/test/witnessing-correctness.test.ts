/**
 * The log's witnessing, the review's findings (issue 17), each against real
 * witnesses in process (`@temporal/witness/testing`) on loopback, some behind a
 * proxy that misbehaves on cue (test/witness-proxy.ts): a saved cosigned
 * checkpoint is checked against the log before it counts; a failing witness
 * is backed off and picked up again; fork evidence is bounded and keeps both
 * notes; witnesses are UNKNOWN until they reply and health is per tile too;
 * a reply's extra lines do not hide the witness's own; after a restart every
 * tile's unwitnessed checkpoint is submitted. Each test sets up its own state.
 */

import { copyFile, mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  MemorySigner,
  authorityVerifierKey,
  contextAt,
  createCosigner,
  createMemoryAuthority,
  createTsaeRequest,
  formatSignatureLine,
  sha256Hex,
  tileVerifierKey,
  verifyConsistencyProof,
  verifyFinality,
  type Authority,
  type ComposedAuthority,
  type PhaseContext,
  type WitnessingRecord,
  type WitnessingStatus,
  type WitnessingStore,
} from "@temporal/agent-sdk";
import { createLocalAuthority, createSigningKeyFile, homePaths, readVerifyingKeyFile } from "@temporal/agent-sdk/node";
import { startInProcessWitnesses, type InProcessWitnesses } from "../src/testing.js";
import { startWitnessProxy, type WitnessProxy } from "./witness-proxy.js";

const AUTHORITY_NAME = "log.correctness.test";
const T1 = contextAt(Date.UTC(2026, 6, 1, 12), { zone: 1 });
const T2 = contextAt(Date.UTC(2026, 6, 1, 12), { zone: 2 });
const NAMES = ["witness.test/c1", "witness.test/c2", "witness.test/c3"];
let counter = 0;

const anchorNew = async (authority: Authority, context: PhaseContext = T1, options?: { quorum?: number; timeoutMs?: number }) => {
  const receipt = await authority.issueReceipt(createTsaeRequest(context, { scope: "test.correctness.v1", action_hash_hex: sha256Hex(`correctness ${counter++}`) }));
  return authority.anchor(receipt, options);
};
const statusOf = async (authority: Authority & { clockchainStatus(): Promise<{ witnessing?: WitnessingStatus }> }) => (await authority.clockchainStatus()).witnessing as WitnessingStatus;
/** Polls until `condition` holds; fails with the last value after `ms`. */
async function until<T>(read: () => Promise<T>, condition: (value: T) => boolean, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (condition(value)) return value;
    if (Date.now() > deadline) throw new Error(`the condition never held within ${ms} ms; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
/** A store the test can read and seed. */
const recordStore = (record?: WitnessingRecord): WitnessingStore & { record: WitnessingRecord | undefined } => {
  const store = {
    record,
    load: () => Promise.resolve(store.record),
    save: (saved: WitnessingRecord) => Promise.resolve(void (store.record = structuredClone(saved))),
  };
  return store;
};

describe("witnessing correctness (issue 17 review)", { timeout: 30_000 }, () => {
  let directory: string;
  let signer: MemorySigner;
  let witnesses: InProcessWitnesses | undefined;
  let proxies: WitnessProxy[] = [];
  const closing: { close(): Promise<void> }[] = [];

  /** Fresh witnesses for this test, following tiles T1 and T2 of the logs whose authority vkeys are given, each behind a proxy. */
  async function startWitnesses(vkeys: readonly string[]): Promise<InProcessWitnesses> {
    const tileKeys = vkeys.flatMap((vkey) => [T1, T2].map((context) => tileVerifierKey(vkey, context.tile_id)));
    const started = await startInProcessWitnesses(join(directory, "witnesses"), NAMES, tileKeys);
    witnesses = started;
    proxies = await Promise.all(started.witnesses.map((witness) => startWitnessProxy(witness.url)));
    return started;
  }
  const vkeyOf = async (each: MemorySigner) => authorityVerifierKey((await each.load()).verifying.jwk, AUTHORITY_NAME);
  /** A home's authority vkey: its key is made on first use. */
  const homeVkey = async (home: string) => {
    const bootstrap = createLocalAuthority({ home, authorityName: AUTHORITY_NAME });
    const [vkey] = Object.values(await bootstrap.noteVerifierKeys());
    await bootstrap.close();
    return vkey as string;
  };
  const witnessKeys = () => (witnesses as InProcessWitnesses).witnesses.map((witness) => witness.vkey);
  const endpoints = () => witnessKeys().map((vkey, i) => ({ url: (proxies[i] as WitnessProxy).url, vkey }));
  /** The same witnesses' keys at URLs that answer nothing (port 9, discard): an authority that only restores. */
  const deadEndpoints = () => witnessKeys().map((vkey, i) => ({ url: `http://127.0.0.1:9/dead${i}`, vkey }));
  const memory = (options: { signer?: MemorySigner; store?: WitnessingStore; quorum?: number; dead?: boolean; backoffMaxMs?: number; requestTimeoutMs?: number } = {}): ComposedAuthority => {
    const authority = createMemoryAuthority({
      signer: options.signer ?? signer,
      authorityName: AUTHORITY_NAME,
      witnessing: {
        witnesses: options.dead === true ? deadEndpoints() : endpoints(),
        quorum: options.quorum ?? 2,
        intervalMs: 20,
        requestTimeoutMs: options.requestTimeoutMs ?? 1_000,
        backoffMaxMs: options.backoffMaxMs ?? 200,
        ...(options.store === undefined ? {} : { store: options.store }),
      },
    });
    closing.push(authority);
    return authority;
  };

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "witnessing-correctness-"));
    signer = new MemorySigner();
  });

  afterEach(async () => {
    await Promise.all(closing.splice(0).map((each) => each.close()));
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
    await witnesses?.close();
    witnesses = undefined;
    await rm(directory, { recursive: true, force: true });
  });

  it("a saved cosigned checkpoint counts only when the log's key signed it and the log's tree has its root; a contradiction is reported, with both notes as fork evidence", async () => {
    // Home A is witnessed; homes B (A's key, another tree) and C (another key) are then given A's witnessing.json.
    const [homeA, homeB, homeC] = ["a", "b", "c"].map((name) => join(directory, name)) as [string, string, string];
    const vkeyA = await homeVkey(homeA);
    await startWitnesses([vkeyA]);
    const witnessed = (home: string, witnesses = endpoints()) =>
      createLocalAuthority({ home, authorityName: AUTHORITY_NAME, witnessing: { witnesses, quorum: 2, intervalMs: 20, requestTimeoutMs: 1_000 } });
    const a = witnessed(homeA);
    const final = await anchorNew(a, T1, { quorum: 2, timeoutMs: 10_000 });
    expect(final.finality).toBe("FINAL");
    // Every witness's cosignature in the saved state, not only the quorum's.
    await until(
      () => statusOf(a),
      (state) => state.health === "HEALTHY",
    );
    await a.close();
    await mkdir(homeB, { recursive: true });
    await copyFile(homePaths(homeA).signingKey, homePaths(homeB).signingKey);
    const unwitnessed = (home: string) => createLocalAuthority({ home, authorityName: AUTHORITY_NAME });
    const [twin, stranger] = [unwitnessed(homeB), unwitnessed(homeC)];
    const twinProof = await anchorNew(twin);
    // The twin's tile grows past the forked size: its latest note (size 2) is tied to its size 1 by a consistency proof.
    const twinLatest = await anchorNew(twin);
    const strangerProof = await anchorNew(stranger);
    await Promise.all([twin.close(), stranger.close()]);
    for (const home of [homeB, homeC]) await copyFile(join(homeA, "witnessing.json"), join(home, "witnessing.json"));

    // A itself, reopened: trusted.
    const reopenedA = witnessed(homeA, deadEndpoints());
    closing.push(reopenedA);
    expect((await reopenedA.getAnchorProof(final.receipt_hash))?.finality).toBe("FINAL");
    expect((await statusOf(reopenedA)).restore_dropped).toEqual([]);

    const c = witnessed(homeC, deadEndpoints());
    closing.push(c);
    expect((await c.getAnchorProof(strangerProof.receipt_hash))?.finality).toBe("PROVISIONAL");
    expect((await statusOf(c)).restore_dropped).toEqual([expect.stringMatching(/^cosigned: the checkpoint of tile \d+ of size 1 is not signed by the log's keys/)]);

    const b = witnessed(homeB, deadEndpoints());
    closing.push(b);
    expect((await b.getAnchorProof(twinProof.receipt_hash))?.finality).toBe("PROVISIONAL");
    const status = await statusOf(b);
    expect(status.restore_dropped).toEqual([expect.stringMatching(/^cosigned: the checkpoint of tile \d+ of size 1 has root [0-9a-f]{64}, the log's tree of that size has root/)]);
    expect(status.health).toBe("FORKED");
    // Both notes, each signed by the log's key: its latest of the tile, and the one the witnesses cosigned.
    expect(status.forks).toHaveLength(NAMES.length);
    expect(status.forks[0]).toMatchObject({ tile_id: T1.tile_id, witness_size: 1, note: twinLatest.checkpoint.note });
    // Checkable from the evidence alone: the proof goes from the log's root at size 1 (not the cosigned one's) to the latest note's root.
    const step = status.forks[0]?.consistency_proof;
    expect(step).toMatchObject({ first: 1, second: 2, first_root: twinProof.checkpoint.root_hash, second_root: twinLatest.checkpoint.root_hash });
    expect(verifyConsistencyProof({ tile_id: T1.tile_id, ...(step as NonNullable<typeof step>) })).toBe(true);
    expect(step?.first_root).not.toBe(final.witnessed?.checkpoint.root_hash);
    // The cosigned note as saved: the FINAL proof's lines and the cosignature that came after the quorum.
    const witnessNote = status.forks[0]?.witness_note as string;
    for (const line of (final.witnessed?.checkpoint.note as string).split("\n")) expect(witnessNote).toContain(line);
    expect(witnessNote.match(/^— witness\.test\//gm)).toHaveLength(NAMES.length);
    expect(status.tiles.find((tile) => tile.tile_id === T1.tile_id)?.health).toBe("FORKED");
  });

  it("a saved cosigned checkpoint beyond the log's tree (a log restored from an older state) is dropped and reported", async () => {
    await startWitnesses([await vkeyOf(signer)]);
    const store = recordStore();
    const original = memory({ store });
    expect((await anchorNew(original, T1, { quorum: 2, timeoutMs: 10_000 })).finality).toBe("FINAL");
    await original.close();
    // The same key over an empty log: what was saved describes a tree this log does not have.
    const empty = memory({ store: recordStore(structuredClone(store.record)), dead: true });
    const first = await anchorNew(empty);
    expect((await empty.getAnchorProof(first.receipt_hash))?.finality).toBe("PROVISIONAL");
    expect((await statusOf(empty)).restore_dropped).toEqual([expect.stringMatching(/^cosigned: the checkpoint of tile \d+ of size 1 is beyond the log's tree/)]);
  });

  it("after a key rotation, a saved cosigned checkpoint signed by the retired key still counts", async () => {
    const home = join(directory, "home");
    const options = { home, authorityName: AUTHORITY_NAME };
    await startWitnesses([await homeVkey(home)]);
    const witnessing = { witnesses: endpoints(), quorum: 2, intervalMs: 20, requestTimeoutMs: 1_000 };
    const first = createLocalAuthority({ ...options, witnessing });
    const final = await anchorNew(first, T1, { quorum: 2, timeoutMs: 10_000 });
    await first.close();

    const paths = homePaths(home);
    const retired = join(directory, "retired-key.pem");
    await rename(paths.signingKey, retired);
    await createSigningKeyFile(paths.signingKey);
    const rotated = createLocalAuthority({ ...options, previousKeys: [await readVerifyingKeyFile(retired)], witnessing: { ...witnessing, witnesses: deadEndpoints() } });
    closing.push(rotated);
    expect(await rotated.getAnchorProof(final.receipt_hash)).toMatchObject({ finality: "FINAL", witnessed: { checkpoint: { tree_size: 1 } } });
    expect((await statusOf(rotated)).restore_dropped).toEqual([]);
  });

  // Timing below is asserted from the status (the backoff's exact gaps) and from what a witness was asked, never from
  // wall-clock durations a loaded machine could stretch; what must not be waited for is made far longer than any timeout.
  it("a failing witness is backed off (each attempt 1, 2, 4, ... intervals after the last, at most the cap) and picked up again once it answers", async () => {
    await startWitnesses([await vkeyOf(signer)]);
    const proxy = proxies[0] as WitnessProxy;
    proxy.mode = { kind: "down" };
    const cap = 300;
    const authority = memory({ quorum: 3, backoffMaxMs: cap });
    const proof = await anchorNew(authority);
    // Each failure sets the next attempt `min(20 ms * 2^(failures - 1), cap)` after it: seen at every count until well past the cap.
    const gaps = new Map<number, number>();
    await until(
      async () => {
        const witness = (await statusOf(authority)).witnesses[0];
        if (typeof witness?.next_attempt_unix_ms === "number" && witness.last_error !== null)
          gaps.set(witness.consecutive_failures, witness.next_attempt_unix_ms - witness.last_error.unix_ms);
        return witness;
      },
      () => [...gaps.keys()].some((failures) => failures >= 6),
      15_000,
    );
    // Several counts seen, past the cap (20 ms * 2^4 > 300 ms): every gap doubled, then held at the cap.
    expect(gaps.size).toBeGreaterThanOrEqual(3);
    for (const [failures, gap] of gaps) expect(gap).toBe(Math.min(20 * 2 ** (failures - 1), cap));
    const witness = (await statusOf(authority)).witnesses[0];
    expect(witness).toMatchObject({ state: "FAILING", last_error: { status: 503 } });
    // One request per attempt (one tile): not asked every interval between them (one more may be under way).
    expect(proxy.requests - (witness?.consecutive_failures ?? 0)).toBeGreaterThanOrEqual(0);
    expect(proxy.requests - (witness?.consecutive_failures ?? 0)).toBeLessThanOrEqual(1);

    proxy.mode = { kind: "forward" };
    const final = await authority.anchor(await authority.issueReceipt(createTsaeRequest(T1, { scope: "test.correctness.v1", action_hash_hex: proof.receipt_hash })), {
      quorum: 3,
      timeoutMs: 10_000,
    });
    expect(final.finality).toBe("FINAL");
    expect((await statusOf(authority)).witnesses[0]).toMatchObject({ state: "ANSWERING", consecutive_failures: 0, next_attempt_unix_ms: null, last_error: null });
  });

  it("a witness far into its backoff does not hold back a new checkpoint for the others", async () => {
    await startWitnesses([await vkeyOf(signer)]);
    const dead = proxies[2] as WitnessProxy;
    dead.mode = { kind: "down" };
    const authority = memory({ quorum: 2, backoffMaxMs: 60_000 });
    await anchorNew(authority);
    // 20, 40, 80, ... ms: after 9 failures the next attempt is over 5 s away.
    const before = await until(
      () => statusOf(authority),
      (state) => (state.witnesses[2]?.consecutive_failures ?? 0) >= 9 && typeof state.witnesses[2]?.next_attempt_unix_ms === "number",
      15_000,
    );
    const requests = dead.requests;
    expect((await anchorNew(authority, T1, { quorum: 2, timeoutMs: 10_000 })).finality).toBe("FINAL");
    // Had the new checkpoint's round waited for the dead witness's turn, that round would have asked it again first.
    expect(dead.requests).toBe(requests);
    expect((await statusOf(authority)).witnesses[2]).toMatchObject({
      consecutive_failures: before.witnesses[2]?.consecutive_failures,
      next_attempt_unix_ms: before.witnesses[2]?.next_attempt_unix_ms,
    });
  });

  it("a witness that holds its requests without answering does not hold back the others' rounds, and is not asked again meanwhile", async () => {
    await startWitnesses([await vkeyOf(signer)]);
    const silent = proxies[2] as WitnessProxy;
    silent.mode = { kind: "silent" };
    // Its requests time out only after 60 s: a FINAL within the anchors' 10 s did not wait for it.
    const authority = memory({ quorum: 2, requestTimeoutMs: 60_000 });
    for (let i = 0; i < 2; i++) expect((await anchorNew(authority, T1, { quorum: 2, timeoutMs: 10_000 })).finality).toBe("FINAL");
    await until(
      async () => silent.requests,
      (requests) => requests >= 1,
    );
    expect(silent.requests).toBe(1);
    expect((await statusOf(authority)).witnesses[2]?.state).toBe("UNKNOWN");
  });

  it("fork evidence is kept for the first 16 sizes per witness and counted beyond", async () => {
    await startWitnesses([await vkeyOf(signer)]);
    (proxies[0] as WitnessProxy).mode = { kind: "fork" };
    const authority = memory({ quorum: 2, backoffMaxMs: 20 });
    for (let i = 0; i < 18; i++) {
      await anchorNew(authority);
      await until(
        () => statusOf(authority),
        (state) => state.forks.length + (state.witnesses[0]?.forks_not_kept ?? 0) === i + 1,
      );
    }
    const status = await statusOf(authority);
    expect(status.forks).toHaveLength(16);
    expect(status.forks.every((fork) => fork.witness === NAMES[0] && fork.witness_note === null)).toBe(true);
    expect(status.witnesses[0]?.forks_not_kept).toBe(2);
    expect(status.health).toBe("FORKED");
  });

  it("witnesses are UNKNOWN until they reply (not HEALTHY before), and health is reported per tile", async () => {
    await startWitnesses([await vkeyOf(signer)]);
    for (const proxy of proxies) proxy.mode = { kind: "silent" };
    // The held requests must not time out (FAILING) while the test looks at them.
    const authority = memory({ quorum: 2, requestTimeoutMs: 60_000 });
    await anchorNew(authority, T1);
    await until(
      async () => proxies.reduce((sum, proxy) => sum + proxy.requests, 0),
      (requests) => requests >= NAMES.length,
    );
    const waiting = await statusOf(authority);
    expect(waiting.witnesses.map((witness) => witness.state)).toEqual(["UNKNOWN", "UNKNOWN", "UNKNOWN"]);
    expect(waiting.health).toBe("DEGRADED");
    expect(waiting.tiles[0]).toMatchObject({ tile_id: T1.tile_id, cosignatures: 0, health: "DEGRADED" });

    for (const proxy of proxies) {
      proxy.mode = { kind: "forward" };
      proxy.release();
    }
    const healthy = await until(
      () => statusOf(authority),
      (state) => state.health === "HEALTHY",
    );
    expect(healthy.witnesses.map((witness) => witness.state)).toEqual(["ANSWERING", "ANSWERING", "ANSWERING"]);

    // One witness down: a new tile reaches the quorum without it (DEGRADED); the first tile, which every witness cosigned, stays HEALTHY.
    (proxies[2] as WitnessProxy).mode = { kind: "down" };
    const t2 = await anchorNew(authority, T2, { quorum: 2, timeoutMs: 10_000 });
    expect(t2.finality).toBe("FINAL");
    const state = await until(
      () => statusOf(authority),
      (value) => value.witnesses[2]?.state === "FAILING",
    );
    expect(state.health).toBe("DEGRADED");
    expect(state.tiles.map(({ tile_id, cosignatures, health, quorum_met }) => ({ tile_id, cosignatures, health, quorum_met }))).toEqual([
      { tile_id: T1.tile_id, cosignatures: 3, health: "HEALTHY", quorum_met: true },
      { tile_id: T2.tile_id, cosignatures: 2, health: "DEGRADED", quorum_met: true },
    ]);

    // Two down: the quorum of 2 of 3 is unreachable for a new checkpoint of T2, STALLED there and overall.
    (proxies[1] as WitnessProxy).mode = { kind: "down" };
    await anchorNew(authority, T2);
    const stalled = await until(
      () => statusOf(authority),
      (value) => value.witnesses[1]?.state === "FAILING",
    );
    expect(stalled.health).toBe("STALLED");
    expect(stalled.tiles.find((tile) => tile.tile_id === T2.tile_id)).toMatchObject({ health: "STALLED", quorum_met: false });
  });

  it("a reply whose first line is another key's under the witness's name still counts the witness's own line", async () => {
    await startWitnesses([await vkeyOf(signer)]);
    const impostor = createCosigner(NAMES[0] as string, new Uint8Array(32).fill(7), async () => new Uint8Array(64).fill(1));
    const line = formatSignatureLine(await impostor.cosign("anything\n", 1));
    (proxies[0] as WitnessProxy).mode = { kind: "prepend", line };
    const authority = memory({ quorum: 3 });
    const final = await anchorNew(authority, T1, { quorum: 3, timeoutMs: 10_000 });
    expect(final.finality).toBe("FINAL");
    expect(final.witnessed?.checkpoint.note).not.toContain(line);
    const keys = { log: Object.values(await authority.noteVerifierKeys()), witnesses: witnessKeys() };
    expect(await verifyFinality(final, keys, 3)).toMatchObject({ valid: true, witnessed_unix_s: final.witnessed?.witnessed_unix_s });
  });

  it("a reply whose line has the witness's name and key ID but bad signature bytes does not count", async () => {
    await startWitnesses([await vkeyOf(signer)]);
    // Same name and key ID as the witness's real key (its vkey's second field): only checking the signature tells it apart.
    // (In front of the real line it would make the reply malformed: a note may not carry two lines of one key.)
    const keyId = Number.parseInt((witnessKeys()[0] as string).split("+")[1] as string, 16);
    const timestamp = new Uint8Array(8);
    new DataView(timestamp.buffer).setBigUint64(0, BigInt(Math.floor(Date.now() / 1000)));
    const forged = formatSignatureLine({ name: NAMES[0] as string, keyId, signature: new Uint8Array([...timestamp, ...new Uint8Array(64).fill(1)]) });
    (proxies[0] as WitnessProxy).mode = { kind: "replace", line: forged };
    const authority = memory({ quorum: 2 });
    const final = await anchorNew(authority, T1, { quorum: 2, timeoutMs: 10_000 });
    expect(final.finality).toBe("FINAL");
    expect(final.witnessed?.checkpoint.note).not.toContain(forged);
    const witness = await until(
      async () => (await statusOf(authority)).witnesses[0],
      (state) => state?.state === "FAILING",
    );
    expect(witness).toMatchObject({ tiles: [], last_error: { status: 200, message: expect.stringMatching(/without a valid cosignature/) } });
  });

  it("after a restart, a witness that had cosigned beyond the saved final checkpoint is not taken for a rollback of the log", async () => {
    const home = join(directory, "home");
    await startWitnesses([await homeVkey(home)]);
    const open = (quorum: number) =>
      createLocalAuthority({ home, authorityName: AUTHORITY_NAME, witnessing: { witnesses: endpoints(), quorum, intervalMs: 20, requestTimeoutMs: 60_000, backoffMaxMs: 100 } });
    const first = open(3);
    expect((await anchorNew(first, T1, { quorum: 3, timeoutMs: 10_000 })).finality).toBe("FINAL");
    // Only the first witness cosigns size 2: saved, its size (2) is beyond the tile's final checkpoint (1).
    for (const proxy of proxies.slice(1)) proxy.mode = { kind: "down" };
    const second = await anchorNew(first, T1);
    await until(
      () => statusOf(first),
      (state) => state.witnesses[0]?.tiles[0]?.cosigned_size === 2,
    );
    await first.close();

    // It now holds its requests: a round before the tile's latest checkpoint was found would have failed it at once.
    (proxies[0] as WitnessProxy).mode = { kind: "silent" };
    for (const proxy of proxies.slice(1)) proxy.mode = { kind: "forward" };
    const reopened = open(2);
    closing.push(reopened);
    await until(
      async () => (await reopened.getAnchorProof(second.receipt_hash))?.finality,
      (finality) => finality === "FINAL",
      10_000,
    );
    expect((await statusOf(reopened)).witnesses[0]).toMatchObject({ state: "UNKNOWN", consecutive_failures: 0, last_error: null });
  });

  it("after a restart, the unwitnessed latest checkpoint of every tile is submitted, not only the log's newest", async () => {
    const home = join(directory, "home");
    await startWitnesses([await homeVkey(home)]);
    for (const proxy of proxies) proxy.mode = { kind: "down" };
    const open = () =>
      createLocalAuthority({ home, authorityName: AUTHORITY_NAME, witnessing: { witnesses: endpoints(), quorum: 2, intervalMs: 20, requestTimeoutMs: 1_000, backoffMaxMs: 100 } });
    const first = open();
    const a = await anchorNew(first, T1);
    const b = await anchorNew(first, T2);
    await first.close();

    for (const proxy of proxies) proxy.mode = { kind: "forward" };
    const reopened = open();
    closing.push(reopened);
    for (const proof of [a, b]) {
      await until(
        async () => (await reopened.getAnchorProof(proof.receipt_hash))?.finality,
        (finality) => finality === "FINAL",
      );
    }
  });
});
