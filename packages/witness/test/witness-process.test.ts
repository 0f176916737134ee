import { once } from "node:events";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNote } from "@temporal/agent-sdk";
import { cosignatureVerifier, readCosignature, submitCheckpoint } from "../src/index.js";
import { verifiedLines } from "./independent.js";
import { TestLog } from "./test-log.js";
import { runWitnessCommand, startWitness, type RunningWitness } from "./witness-process.js";

// Real processes on loopback; each step is well under a second, the timeouts are for a loaded machine.
describe("temporal-witness as a process", { timeout: 30_000 }, () => {
  let directory: string;
  let config: string;
  let vkey: string;
  let witness: RunningWitness | undefined;
  const log = new TestLog("example.com/log");

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "witness-process-"));
    const created = await runWitnessCommand(["key", "create", join(directory, "witness.key"), "--name", "witness.example/w1"]);
    expect(created.code, created.stderr).toBe(0);
    vkey = created.stdout.trim();
    config = join(directory, "witness.json");
    await writeFile(
      config,
      JSON.stringify({ name: "witness.example/w1", key_file: "witness.key", state_dir: "state", logs: [{ origin: log.origin, keys: [log.vkey] }], max_body_bytes: 4096 }),
    );
  });

  afterAll(async () => {
    await witness?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  /** A config like the suite's with a state folder of its own, so that a second witness can run beside the first. */
  const configWithState = async (stateDir: string): Promise<string> => {
    const file = join(directory, `${stateDir}.json`);
    await writeFile(file, JSON.stringify({ name: "witness.example/w1", key_file: "witness.key", state_dir: stateDir, logs: [{ origin: log.origin, keys: [log.vkey] }] }));
    return file;
  };

  /** A witness with its own state folder and a client stalled mid-body on it ("100 Continue" shows the server has the request). */
  const witnessWithStalledClient = async (stateDir: string): Promise<{ stalled: RunningWitness; client: Socket }> => {
    const stalled = await startWitness(await configWithState(stateDir));
    const { hostname, port } = new URL(stalled.url);
    const client = connect(Number(port), hostname);
    client.write("POST /add-checkpoint HTTP/1.1\r\nHost: witness\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n");
    const [continued] = (await once(client, "data")) as [Buffer];
    expect(continued.toString()).toContain("100 Continue");
    client.write("old 0\n");
    return { stalled, client };
  };

  it("key create prints a cosignature/v1 vkey and never replaces a key", async () => {
    expect(vkey).toMatch(/^witness\.example\/w1\+[0-9a-f]{8}\+B/);
    const again = await runWitnessCommand(["key", "create", join(directory, "witness.key"), "--name", "witness.example/w1"]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already exists");
  });

  it("exits 2 naming the field for a bad config, without a stack trace", async () => {
    const bad = join(directory, "bad.json");
    await writeFile(bad, JSON.stringify({ name: "witness.example/w1", key_file: "witness.key", state_dir: "state", logs: [{ origin: log.origin, keys: ["not a vkey"] }] }));
    const [run, missing, badPort, device] = await Promise.all([
      runWitnessCommand(["--config", bad]),
      runWitnessCommand(["--config", join(directory, "missing.json")]),
      runWitnessCommand(["--port", "x", "--config", config]),
      // Read whole, a device never ends: reading stops at the limit.
      runWitnessCommand(["--config", "/dev/zero"]),
    ]);
    const keyInMissingFolder = await runWitnessCommand(["key", "create", join(directory, "absent", "w.key"), "--name", "witness.example/w9"]);
    expect(keyInMissingFolder.code).toBe(2);
    expect(keyInMissingFolder.stderr).toBe(`temporal-witness: cannot create the witness key ${join(directory, "absent", "w.key")}: no such file or folder [INVALID_WITNESS_KEY]\n`);
    // A key path that is there but no key: key create would refuse it as existing, so it is not suggested.
    const folderKey = join(directory, "folder-key.json");
    await writeFile(folderKey, JSON.stringify({ name: "witness.example/w1", key_file: ".", state_dir: "state", logs: [{ origin: log.origin, keys: [log.vkey] }] }));
    const keyIsFolder = await runWitnessCommand(["--config", folderKey]);
    expect(keyIsFolder.code).toBe(2);
    expect(keyIsFolder.stderr).toBe(`temporal-witness: cannot read the witness key ${directory}: it is a folder [INVALID_WITNESS_KEY]\n`);
    expect(missing.stderr).toContain("missing.json");
    expect(device.code).toBe(2);
    expect(device.stderr).toBe("temporal-witness: config /dev/zero: cannot be read (it holds more than 1 MiB: no file of its kind is that large) [INVALID_WITNESS_CONFIG]\n");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("logs[0].keys[0]");
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(missing.code).toBe(2);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain("--port");
  });

  it("teaches with --help, key --help included, and says what is wrong in one line with its code and a pointer to --help", async () => {
    const [help, short, keyHelp, unknown, badKey] = await Promise.all([
      runWitnessCommand(["--help"]),
      runWitnessCommand(["-h"]),
      runWitnessCommand(["key", "--help"]),
      runWitnessCommand(["--bogus"]),
      runWitnessCommand(["key", "make"]),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("temporal-witness key create <file> --name <name>");
    expect(short).toEqual(help);
    expect(keyHelp.code).toBe(0);
    expect(keyHelp.stdout).toMatch(/^Usage:\n {2}temporal-witness key create <file> --name <name>\n[\s\S]*Example:/);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("temporal-witness: unknown option '--bogus' [INVALID_ARGUMENT]\nTry 'temporal-witness --help' for more information.\n");
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toBe("temporal-witness: key create takes a file and --name <witness name> [INVALID_ARGUMENT]\nTry 'temporal-witness --help' for more information.\n");
  });

  it("an address in use is LISTEN_FAILED, saying what to do; a 404 names the path as it was sent", async () => {
    const first = await startWitness(config);
    try {
      // Another state folder: the first witness holds its own.
      const taken = await runWitnessCommand(["--config", await configWithState("second-state"), "--port", new URL(first.url).port]);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toMatch(
        /^temporal-witness: cannot listen on 127\.0\.0\.1:\d+: the address is in use \(another temporal-witness\?\); .* --port 0 to pick a free one \[LISTEN_FAILED\]\n$/,
      );
      const reply = await rawRequest(first.url, "POST //add-checkpoint HTTP/1.1\r\nHost: witness\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      expect(reply).toMatch(/^HTTP\/1\.1 404 /);
      expect(reply).toContain("no such endpoint //add-checkpoint;");
      // Absolute-form, which a server must accept (RFC 9112 3.2.2): the endpoint is found by its path.
      const absolute = await rawRequest(first.url, "POST http://witness/add-checkpoint HTTP/1.1\r\nHost: witness\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      expect(absolute).not.toMatch(/^HTTP\/1\.1 404 /);
    } finally {
      await first.stop();
    }
  });

  it("a second SIGTERM during the grace period closes the stalled connection at once, releases the lock and exits 1", async () => {
    const { stalled, client } = await witnessWithStalledClient("stall-twice-state");
    try {
      const exited = stalled.stop();
      // The first signal's grace period is 5 s; the second ends it.
      await new Promise((resolve) => setTimeout(resolve, 300));
      stalled.child.kill("SIGTERM");
      expect(await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve("still running after 4 s"), 4_000))])).toBe(1);
      expect(await readdir(join(directory, "stall-twice-state"))).not.toContain("witness.lock");
    } finally {
      client.destroy();
      stalled.child.kill("SIGKILL");
    }
  });

  it("a SIGTERM exits 0 and releases the lock after the grace period even while a client stalls mid-request", async () => {
    const { stalled, client } = await witnessWithStalledClient("stall-state");
    try {
      const started = Date.now();
      const exited = await Promise.race([stalled.stop(), new Promise<string>((resolve) => setTimeout(() => resolve("still running after 15 s"), 15_000))]);
      expect(exited).toBe(0);
      expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
      expect(await readdir(join(directory, "stall-state"))).not.toContain("witness.lock");
    } finally {
      client.destroy();
      stalled.child.kill("SIGKILL");
    }
  });

  it("cosigns 0 -> 4 -> 11 with consistency proofs; every refusal has its status; a restart keeps the state", async () => {
    witness = await startWitness(config);
    const verifier = await cosignatureVerifier(vkey);
    const expectCosigned = async (oldSize: number, size: number) => {
      const note = await log.checkpoint(size);
      const outcome = await submitCheckpoint(witness!.url, { oldSize, proof: log.proof(oldSize, size), note });
      if (outcome.kind !== "cosigned") throw new Error(`expected cosigned, got ${JSON.stringify(outcome)}`);
      const { signatures } = outcome;
      const opened = await openNote(`${note}${formatLines(signatures)}`, [verifier]);
      expect(Math.abs(readCosignature(opened.verified[0]!)!.timestamp - Date.now() / 1000)).toBeLessThan(60);
      expect(verifiedLines(`${note}${formatLines(signatures)}`, vkey)).toHaveLength(1);
    };
    log.append(4);
    await expectCosigned(0, 4);
    log.append(7);
    await expectCosigned(4, 11);

    expect(await submitCheckpoint(witness.url, { oldSize: 4, proof: log.proof(4, 11), note: await log.checkpoint(11) })).toEqual({ kind: "conflict", size: 11 });
    log.append(5);
    const badProof = log.proof(11, 16).reverse();
    expect(await submitCheckpoint(witness.url, { oldSize: 11, proof: badProof, note: await log.checkpoint(16) })).toMatchObject({ kind: "refused", status: 422 });
    const stranger = new TestLog("example.com/stranger").append(2);
    expect(await submitCheckpoint(witness.url, { oldSize: 0, proof: [], note: await stranger.checkpoint() })).toMatchObject({ kind: "refused", status: 404 });
    const impostor = new TestLog(log.origin).append(16);
    expect(await submitCheckpoint(witness.url, { oldSize: 11, proof: impostor.proof(11), note: await impostor.checkpoint() })).toMatchObject({ kind: "refused", status: 403 });
    const fork = await log.checkpoint(11, new Uint8Array(32).fill(1));
    expect(await submitCheckpoint(witness.url, { oldSize: 11, proof: [], note: fork })).toEqual({ kind: "conflict", size: 11 });
    // Both validly signed refusals are kept: the fork, and the larger tree whose proof failed.
    const evidence = await readdir(join(directory, "state", "evidence"));
    expect(evidence.filter((name) => name.includes("-11-fork-"))).toHaveLength(1);
    expect(evidence.filter((name) => name.includes("-11-inconsistent-"))).toHaveLength(1);

    // Only POST /add-checkpoint, and bodies up to max_body_bytes.
    expect((await fetch(`${witness.url}/add-checkpoint`)).status).toBe(405);
    expect((await fetch(`${witness.url}/checkpoint`, { method: "POST", body: "x" })).status).toBe(404);
    expect((await fetch(`${witness.url}/add-checkpoint`, { method: "POST", body: "x".repeat(5000) })).status).toBe(413);

    expect(await witness.stop()).toBe(0);
    witness = await startWitness(config);
    // After the restart an older checkpoint is still a rollback, and the next one still needs a proof from 11.
    expect(await submitCheckpoint(witness.url, { oldSize: 4, proof: [], note: await log.checkpoint(4) })).toEqual({ kind: "conflict", size: 11 });
    expect(await submitCheckpoint(witness.url, { oldSize: 0, proof: [], note: await log.checkpoint(16) })).toEqual({ kind: "conflict", size: 11 });
    await expectCosigned(11, 16);

    // A damaged state file is never trusted nor reset: that log gets 500 and nothing is cosigned.
    expect(await witness.stop()).toBe(0);
    const [stateFile] = await readdir(join(directory, "state", "logs"));
    await writeFile(join(directory, "state", "logs", stateFile!), "{ not json");
    witness = await startWitness(config);
    log.append(1);
    expect(await submitCheckpoint(witness.url, { oldSize: 16, proof: log.proof(16), note: await log.checkpoint() })).toMatchObject({ kind: "refused", status: 500 });
    expect(witness.stderr()).toContain("restore it from a backup");
    expect(witness.stderr()).not.toMatch(/\n\s+at /);
  });
});

function formatLines(signatures: readonly { name: string; keyId: number; signature: Uint8Array }[]): string {
  return signatures
    .map((s) => {
      const bytes = Buffer.alloc(4 + s.signature.length);
      bytes.writeUInt32BE(s.keyId, 0);
      bytes.set(s.signature, 4);
      return `\u2014 ${s.name} ${bytes.toString("base64")}\n`;
    })
    .join("");
}

/** Sends `request` as it is (a URL parser would rewrite "//add-checkpoint") and resolves with the whole reply once the server closes. */
async function rawRequest(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.write(request);
  let reply = "";
  socket.on("data", (chunk: Buffer) => (reply += chunk.toString()));
  await once(socket, "close");
  return reply;
}
