/**
 * The log's side of witnessing against four real `temporal-witness`
 * processes on loopback, quorum 3 (issue 17): all honest, one down, two down
 * and back, a witness restarted with its state, and a log key that signs two
 * trees of one size shown to different witnesses. The processes are shared
 * (started once, restarted before a test that finds one stopped); each test
 * has its own authority on its own tile, so none depends on another's state.
 */

import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  MemorySigner,
  authorityVerifierKey,
  contextAt,
  cosignatureVerifier,
  createMemoryAuthority,
  createTsaeRequest,
  hexToBytes,
  noteVerifier,
  openNote,
  sha256Hex,
  submitCheckpoint,
  tileVerifierKey,
  verifyAnchorProof,
  verifyConsistency,
  receiptHash,
  type AnchorProof,
  type Receipt,
  type ComposedAuthority,
  type WitnessingStatus,
} from "@temporal/agent-sdk";
import { createWitnessKey } from "../src/index.js";
import { verifiedLines } from "./independent.js";
import { startWitness, type RunningWitness } from "./witness-process.js";

const AUTHORITY_NAME = "log.quorum.test";
/** One tile per test (one per SWT zone of a day): a witness's state for one tile is not another test's. */
const tile = (zone: number) => contextAt(Date.UTC(2026, 2, 1, 1), { zone });
const INTERVAL_MS = 50;

interface WitnessSetup {
  readonly config: string;
  readonly port: number;
  readonly vkey: string;
  readonly stateDir: string;
  process: RunningWitness | undefined;
}

// Real processes; every step takes well under a second, the timeouts are for a loaded 2-core machine.
describe("witnessing with 4 temporal-witness processes, quorum 3", { timeout: 30_000 }, () => {
  let directory: string;
  const signer = new MemorySigner();
  const witnesses: WitnessSetup[] = [];
  let authority: ComposedAuthority;
  let counter = 0;
  /** This test's tile. */
  let T1: ReturnType<typeof tile>;

  const anchorNew = (options?: { quorum?: number; timeoutMs?: number }, context = T1, by = authority) =>
    by
      .issueReceipt(createTsaeRequest(context, { scope: "test.quorum.v1", action_hash_hex: sha256Hex(`quorum ${counter++}`) }))
      .then((receipt) => by.anchor(receipt, options).then((proof) => ({ receipt, proof })));
  const status = async (by = authority) => (await by.clockchainStatus()).witnessing as WitnessingStatus;
  /** The status once `condition` holds; throws with the last status after 5 s, so a test fails at the state it waited for. */
  const until = async (condition: (state: WitnessingStatus) => boolean, by = authority) => {
    for (let i = 0; i < 200; i++) {
      const state = await status(by);
      if (condition(state)) return state;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`the witnessing status never met the condition within 5 s; last: ${JSON.stringify(await status(by))}`);
  };
  const start = async (witness: WitnessSetup) => (witness.process = await startWitness(witness.config, witness.port));
  const stop = async (witness: WitnessSetup) => {
    await witness.process?.stop();
    witness.process = undefined;
  };

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "witness-quorum-"));
    const { verifying } = await signer.load();
    const logVkey = authorityVerifierKey(verifying.jwk, AUTHORITY_NAME);
    // One entry for every tile of the authority: the witnesses derive each tile's key.
    const logs = [{ authority: AUTHORITY_NAME, keys: [logVkey] }];
    await Promise.all(
      [1, 2, 3, 4].map(async (n) => {
        const name = `witness.test/w${n}`;
        const folder = join(directory, `w${n}`);
        await mkdir(folder);
        // In process: the command itself is tested in witness-process.test.ts, and four more processes cost seconds.
        const { vkey } = await createWitnessKey(join(folder, "witness.key"), name);
        const config = join(folder, "witness.json");
        await writeFile(config, JSON.stringify({ name, key_file: "witness.key", state_dir: "state", logs }));
        const witness: WitnessSetup = { config, port: await freePort(), vkey, stateDir: join(folder, "state"), process: undefined };
        await start(witness);
        witnesses[n - 1] = witness;
      }),
    );
  });

  let zone = 0;
  beforeEach(async () => {
    // A witness a test before stopped is back, with its state; this test's authority and tile are its own.
    await Promise.all(witnesses.filter((w) => w.process === undefined).map(start));
    T1 = tile(zone++);
    authority = createMemoryAuthority({
      signer,
      authorityName: AUTHORITY_NAME,
      witnessing: {
        witnesses: witnesses.map((w) => ({ url: `http://127.0.0.1:${w.port}`, vkey: w.vkey })),
        quorum: 3,
        intervalMs: INTERVAL_MS,
        requestTimeoutMs: 2_000,
        backoffMaxMs: 200,
      },
    });
  });

  afterEach(async () => {
    await authority.close();
  });

  afterAll(async () => {
    await Promise.all(witnesses.map(stop));
    await rm(directory, { recursive: true, force: true });
  });

  /** Everything a client can check of a FINAL proof: inclusion, the consistency step, the log's and at least `quorum` witnesses' signatures. */
  async function expectFinal(receipt: Receipt, proof: AnchorProof, quorum: number) {
    expect(proof.finality).toBe("FINAL");
    const witnessed = proof.witnessed;
    if (witnessed === undefined) throw new Error("a FINAL proof carries its cosigned checkpoint");
    const { verifying } = await signer.load();
    expect(proof.receipt_hash).toBe(receiptHash(receipt));
    expect(await verifyAnchorProof(proof, verifying)).toBe(true);
    const { checkpoint } = witnessed;
    expect(checkpoint.tree_size).toBeGreaterThan(proof.leaf_index);
    const [small, large] = proof.tree_size <= checkpoint.tree_size ? [proof, checkpoint] : [checkpoint, proof];
    expect(verifyConsistency(small.tree_size, large.tree_size, hexToBytes(small.root_hash), hexToBytes(large.root_hash), witnessed.consistency_proof.map(hexToBytes))).toBe(true);
    const verifiers = await Promise.all(witnesses.map((w) => cosignatureVerifier(w.vkey)));
    const opened = await openNote(checkpoint.note, [await noteVerifier(tileVerifierKey(authorityVerifierKey(verifying.jwk, AUTHORITY_NAME), proof.tile_id)), ...verifiers]);
    expect(opened.signatures.length - 1).toBeGreaterThanOrEqual(quorum);
    expect(checkpoint.cosignatures.length).toBe(opened.signatures.length - 1);
    // And with the verifier written from the specs alone (test/independent.ts), sharing no code with the SDK.
    expect(witnesses.reduce((count, w) => count + verifiedLines(checkpoint.note, w.vkey).length, 0)).toBe(checkpoint.cosignatures.length);
    const timestamps = checkpoint.cosignatures.map((c) => c.timestamp).sort((a, b) => a - b);
    expect(witnessed.witnessed_unix_s).toBe(timestamps[quorum - 1]);
  }

  it("all honest: FINAL with 3 or more verified cosignatures, then HEALTHY", async () => {
    const provisional = await anchorNew();
    expect(provisional.proof.finality).toBe("PROVISIONAL");
    const { receipt, proof } = await anchorNew({ quorum: 3, timeoutMs: 10_000 });
    await expectFinal(receipt, proof, 3);
    const state = await until((s) => s.health === "HEALTHY" && s.witnesses.every((w) => w.tiles[0]?.cosigned_size === 2));
    expect(state.health).toBe("HEALTHY");
    expect(state.tiles).toEqual([expect.objectContaining({ tile_id: T1.tile_id, tree_size: 2, final_size: 2, quorum_met: true })]);
    // The first anchor became FINAL too, with no new anchor: the same round covered it.
    const again = await authority.getAnchorProof(provisional.proof.receipt_hash);
    expect(again?.finality).toBe("FINAL");
  });

  it("asks for more cosignatures than witnesses: QUORUM_UNREACHABLE before anchoring", async () => {
    await expect(anchorNew({ quorum: 5 })).rejects.toMatchObject({ code: "QUORUM_UNREACHABLE", message: "needs 5 cosignatures, 4 witnesses are configured" });
  });

  it("one witness down: still FINAL, status DEGRADED naming it", async () => {
    await stop(witnesses[3] as WitnessSetup);
    const { receipt, proof } = await anchorNew({ quorum: 3, timeoutMs: 10_000 });
    await expectFinal(receipt, proof, 3);
    const state = await until((s) => s.witnesses[3]?.last_error !== null);
    expect(state.health).toBe("DEGRADED");
    expect(state.witnesses[3]?.last_error).toMatchObject({ status: null, tile_id: T1.tile_id });
  });

  it("two down: PROVISIONAL and STALLED, FINALITY_TIMEOUT with the provisional proof; FINAL once they return, a restarted witness kept its state", async () => {
    // Every witness cosigns size 1 first, then two stop.
    await anchorNew();
    await until((s) => s.health === "HEALTHY" && s.witnesses.every((w) => w.tiles[0]?.cosigned_size === 1));
    await Promise.all([stop(witnesses[2] as WitnessSetup), stop(witnesses[3] as WitnessSetup)]);
    const { receipt, proof } = await anchorNew();
    expect(proof.finality).toBe("PROVISIONAL");
    const state = await until((s) => s.health === "STALLED");
    expect(state.health).toBe("STALLED");
    const late = await authority.anchor(receipt, { quorum: 3, timeoutMs: 300 }).catch((error: unknown) => error);
    expect(late).toMatchObject({ code: "FINALITY_TIMEOUT", proof: { receipt_hash: proof.receipt_hash, finality: "PROVISIONAL" } });

    await Promise.all([start(witnesses[2] as WitnessSetup), start(witnesses[3] as WitnessSetup)]);
    const final = await authority.anchor(receipt, { quorum: 3, timeoutMs: 10_000 });
    await expectFinal(receipt, final, 3);
    const healthy = await until((s) => s.health === "HEALTHY");
    expect(healthy.health).toBe("HEALTHY");
    // Witness 3 cosigned size 1 before it stopped and size 2 after: asked to start over from 0, it answers with its persisted size.
    const answer = await submitCheckpoint(`http://127.0.0.1:${witnesses[2]?.port}`, { oldSize: 0, proof: [], note: final.checkpoint.note });
    expect(answer).toEqual({ kind: "conflict", size: 2 });
  });

  it("a log key signing two trees of one size, shown to different witnesses: refused, FORKED with the evidence", async () => {
    // The same key and authority name with another log: a second history for tile T2, witnessed by w3 and w4 only.
    const twin = createMemoryAuthority({
      signer,
      authorityName: AUTHORITY_NAME,
      witnessing: { witnesses: witnesses.slice(2).map((w) => ({ url: `http://127.0.0.1:${w.port}`, vkey: w.vkey })), quorum: 2, intervalMs: INTERVAL_MS },
    });
    try {
      const forged = await anchorNew({ quorum: 2, timeoutMs: 10_000 }, T1, twin);
      expect(forged.proof.finality).toBe("FINAL");
    } finally {
      await twin.close();
    }
    const honest = await anchorNew();
    const state = await until((s) => s.forks.length === 2);
    expect(state.health).toBe("FORKED");
    expect(state.forks.map((fork) => fork.witness).sort()).toEqual(["witness.test/w3", "witness.test/w4"]);
    expect(state.forks[0]).toMatchObject({ tile_id: T1.tile_id, witness_size: 1, note: honest.proof.checkpoint.note, witness_note: null });
    expect(state.tiles.find((entry) => entry.tile_id === T1.tile_id)).toMatchObject({ final_size: 0, quorum_met: false, health: "FORKED" });
    expect((await authority.getAnchorProof(honest.proof.receipt_hash))?.finality).toBe("PROVISIONAL");
    // Each refusing witness keeps both notes: the one it cosigned and ours.
    const folder = join(witnesses[2]?.stateDir as string, "evidence");
    // Only the evidence itself, not a temporary file of a write in progress.
    const [file] = (await readdir(folder)).filter((name) => !name.startsWith("."));
    const evidence = JSON.parse(await readFile(join(folder, file as string), "utf8")) as { kind: string; refusedNote: string; cosigned: { note: string } };
    expect(evidence).toMatchObject({ kind: "fork", refusedNote: honest.proof.checkpoint.note });
    expect(evidence.cosigned.note).not.toBe(honest.proof.checkpoint.note);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
