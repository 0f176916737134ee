import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verifyAnchorProof, verifyReceipt, type AnchorProof, type PublicKeyJwk, type Receipt } from "../src/index.js";
import { createLocalAuthority } from "../src/node/index.js";
import { tempDir } from "./helpers.js";

/** How long the writers load the home, ms: `TEMPORAL_SHARED_HOME_LOAD_MS`, default 30 s. */
const LOAD_MS = Number(process.env.TEMPORAL_SHARED_HOME_LOAD_MS || 30_000);
/** Time for the processes to start, finish their last run and report, on a loaded 2-core machine. */
const SETTLE_MS = 90_000;
const SCRIPTS = new URL("./shared-home/", import.meta.url).pathname;

interface Finished {
  readonly code: number | null;
  readonly lines: string[];
  readonly stderr: string;
}

function runScript(script: string, args: string[]): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(SCRIPTS, script), ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    // "close", not "exit": at "exit" the child's last output may still be unread (its pipes close after it).
    child.on("close", (code) => resolve({ code, lines: stdout.split("\n").filter((line) => line !== ""), stderr }));
  });
}

/** The acknowledged anchors a process printed, after checking it finished cleanly. */
function acknowledged(name: string, finished: Finished): { receipt: Receipt; proof: AnchorProof }[] {
  expect(finished.code, `${name} exited ${finished.code}: ${finished.stderr}${finished.lines.slice(-2).join("\n")}`).toBe(0);
  expect(finished.lines.at(-1), name).toBe("done");
  const anchored: { receipt: Receipt; proof: AnchorProof }[] = [];
  for (const line of finished.lines.slice(0, -1)) {
    const parsed = JSON.parse(line) as { receipt: Receipt; proof: AnchorProof } | { receipts: Receipt[]; anchors: AnchorProof[] };
    if ("receipts" in parsed) parsed.receipts.forEach((receipt, i) => anchored.push({ receipt, proof: parsed.anchors[i] as AnchorProof }));
    else anchored.push(parsed);
  }
  return anchored;
}

describe("one home, many processes", () => {
  it(
    `8 processes (CLI runs and SDK writers) anchor into one home for ${LOAD_MS} ms; every acknowledged proof is found and verifies, and the whole chain reopens`,
    async () => {
      const home = await tempDir();
      const deadline = Date.now() + LOAD_MS;
      const processes = [
        ...[1, 2, 3, 4].map((n) => [`cli loop ${n}`, runScript("cli-loop.mjs", [home, String(deadline)])] as const),
        ...[1, 2, 3].map((n) => [`writer ${n}`, runScript("writer.mjs", [home, String(deadline), "1", `writer ${n}`])] as const),
        // Several authorities in one process share the home too.
        ["writer with two authorities", runScript("writer.mjs", [home, String(deadline), "2", "writer 4"])] as const,
      ];
      const results = await Promise.all(processes.map(async ([name, finished]) => [name, acknowledged(name, await finished)] as const));
      for (const [name, anchored] of results) expect(anchored.length, `${name} anchored nothing`).toBeGreaterThan(0);
      const all = results.flatMap(([, anchored]) => anchored);

      const authority = createLocalAuthority({ home });
      try {
        const status = await authority.status();
        expect(status.recovered).toBeUndefined();
        expect(status.anchors).toBe(new Set(all.map(({ proof }) => proof.receipt_hash)).size);
        expect((await authority.clockchainStatus()).chain_valid).toBe(true);
        const [jwk] = Object.values(await authority.publicKeys()) as [PublicKeyJwk];
        for (const { receipt, proof } of all) {
          expect(await verifyReceipt(receipt, jwk)).toBe(true);
          expect(await verifyAnchorProof(proof, jwk)).toBe(true);
          const found = await authority.getAnchorProof(proof.receipt_hash);
          expect(found).toMatchObject({ tile_id: proof.tile_id, leaf_index: proof.leaf_index });
          expect(await verifyAnchorProof(found as AnchorProof, jwk)).toBe(true);
          // The head the writer was given is the one the chain holds at its sequence.
          expect(await authority.verifyAnchored(receipt, proof)).toMatchObject({ valid: true });
        }
      } finally {
        await authority.close();
      }
    },
    LOAD_MS + SETTLE_MS,
  );

  it("processes creating the key of a new home at the same moment all get the one key", async () => {
    const home = join(await tempDir(), "new-home");
    const start = String(Date.now() + 1_500);
    const loaded = await Promise.all(Array.from({ length: 6 }, () => runScript("load-key.mjs", [home, start])));
    for (const { code, stderr } of loaded) expect(code, stderr).toBe(0);
    const keyIds = new Set(loaded.map(({ lines }) => lines[0]));
    expect(keyIds.size).toBe(1);
    const authority = createLocalAuthority({ home });
    try {
      expect(Object.keys(await authority.publicKeys())).toEqual([...keyIds]);
    } finally {
      await authority.close();
    }
    expect(await readFile(join(home, "signing-key.pem"), "utf8")).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  }, 60_000);
});
