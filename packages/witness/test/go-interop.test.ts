import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPairSync, sign } from "node:crypto";
import { noteVerifier } from "@temporal/agent-sdk";
import { Witness, createCosigner, formatAddCheckpointRequest } from "../src/index.js";
import { FileStateStore } from "../src/state-store.js";
import { TestLog } from "./test-log.js";

// Go's golang.org/x/mod/sumdb/note (Debian: golang-go, golang-golang-x-mod-dev), built in GOPATH mode so nothing is downloaded.
const GOPATH = process.env.GOPATH ?? "/usr/share/gocode";
const goFound = spawnSync("go", ["version"]).status === 0;
const noteFound = GOPATH.split(delimiter).some((path) => existsSync(join(path, "src/golang.org/x/mod/sumdb/note")));
const skipReason = !goFound ? "`go` is not installed" : !noteFound ? `golang.org/x/mod/sumdb/note is not in GOPATH ${GOPATH}` : "";
const SOURCE = fileURLToPath(new URL("go/verify_note.go", import.meta.url));

describe.skipIf(skipReason !== "")(`interop with Go's x/mod/sumdb/note${skipReason ? ` (skipped: ${skipReason})` : ""}`, { timeout: 60_000 }, () => {
  let directory: string;
  let binary: string;
  let store: FileStateStore;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "witness-go-"));
    binary = join(directory, "verify_note");
    const env = { ...process.env, GO111MODULE: "off", GOPATH, GOCACHE: join(tmpdir(), "temporal-witness-go-cache"), GOFLAGS: "" };
    const build = spawnSync("go", ["build", "-o", binary, SOURCE], { env, encoding: "utf8" });
    if (build.status !== 0) throw new Error(`go build failed: ${build.stderr}`);
    store = await FileStateStore.open(join(directory, "state"));
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    await rm(directory, { recursive: true, force: true });
  });

  const goOpen = (input: { log_vkey: string; witness_vkey: string; note: string }) => {
    const run = spawnSync(binary, [], { input: JSON.stringify(input), encoding: "utf8" });
    return { status: run.status, stderr: run.stderr, output: run.status === 0 ? JSON.parse(run.stdout) : undefined };
  };

  it("opens our cosigned checkpoint: the log's signature and the witness's cosignature/v1 both verify", async () => {
    const log = new TestLog("example.com/go-interop").append(9);
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const raw = new Uint8Array(Buffer.from(publicKey.export({ format: "jwk" }).x as string, "base64url"));
    const cosigner = createCosigner("witness.example/go", raw, async (message) => new Uint8Array(sign(null, message, privateKey)));
    const witness = new Witness({ cosigner, logs: new Map([[log.origin, [await noteVerifier(log.vkey)]]]), store, now: () => 1_700_000_000_500 });
    const note = await log.checkpoint();
    const outcome = await witness.addCheckpoint(formatAddCheckpointRequest({ oldSize: 0, proof: [], note }));
    expect(outcome.status).toBe(200);
    const cosigned = `${note}${(outcome as { cosignatures: string }).cosignatures}`;

    const opened = goOpen({ log_vkey: log.vkey, witness_vkey: cosigner.vkey, note: cosigned });
    expect(opened.stderr).toBe("");
    expect(opened.output).toEqual({
      text: note.slice(0, note.indexOf("\n\n") + 1),
      verified: [
        { name: "example.com/go-interop", timestamp: 0 },
        { name: "witness.example/go", timestamp: 1_700_000_000 },
      ],
      unverified: 0,
    });

    // One flipped bit in the cosignature's timestamp: a known key's signature that fails, so the whole note is refused.
    const line = (outcome as { cosignatures: string }).cosignatures;
    const bytes = Buffer.from(line.split(" ")[2]!.trim(), "base64");
    bytes[11] = (bytes[11] as number) ^ 1;
    const tampered = `${note}\u2014 witness.example/go ${bytes.toString("base64")}\n`;
    expect(goOpen({ log_vkey: log.vkey, witness_vkey: cosigner.vkey, note: tampered }).status).toBe(1);
  });
});
