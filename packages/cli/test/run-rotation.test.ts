/**
 * `temporalc run --previous-key --authority-name` on a home whose key was rotated (the old `signing-key.pem` moved
 * aside, a new one in its place): without them the run stops before any task and says what to give; with them the
 * mission anchors under the new key, the receipt anchored before the rotation still has its proof, and the proof
 * verifies with the old key from the authority's published keys.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { verifyAnchorProof, type AnchorProof, type RunResult } from "@temporal/agent-sdk";
import { createLocalAuthority, createSigningKeyFile, homePaths, readVerifyingKeyFile } from "@temporal/agent-sdk/node";
import { runCli } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "temporalc-run-rotation-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("temporalc run on a rotated home", () => {
  it("opens it with --previous-key and --authority-name, anchors under the new key and keeps the old receipt's proof", { timeout: 120_000 }, async () => {
    const mission = join(scratch, "anchored.mission");
    writeFileSync(mission, "@temporal v4.6.2\nmission anchored { on ALLOW { execute ping anchor TSAE -> clockchain } }\n");
    const tasks = join(scratch, "tasks.mjs");
    writeFileSync(tasks, "export const ping = () => {};\n");
    const home = join(scratch, "home");
    const run = (...extra: string[]) => runCli(["run", mission, "--tasks", tasks, "--home", home, "--json", ...extra]);

    const before = run();
    expect(before.code, before.stderr).toBe(0);
    const [oldProof] = (JSON.parse(before.stdout) as RunResult).anchors as AnchorProof[];
    const paths = homePaths(home);
    const retired = join(scratch, "key-a.pem");
    renameSync(paths.signingKey, retired);
    await createSigningKeyFile(paths.signingKey);
    const keyA = await readVerifyingKeyFile(retired);
    const keyB = await readVerifyingKeyFile(paths.signingKey);
    const authorityName = `temporal-authority/${keyA.key_id}`;

    const refused = runCli(["run", mission, "--tasks", tasks, "--home", home]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("which is none of this node's keys");
    expect(refused.stderr).toContain("hint: for a home whose key was rotated, give each retired key's file with --previous-key <file>");
    const unnamed = runCli(["run", mission, "--tasks", tasks, "--home", home, "--previous-key", retired]);
    expect([unnamed.code, unnamed.stderr]).toEqual([2, expect.stringContaining(`configure the authority name "${authorityName}"`)]);
    const missing = run("--previous-key", join(scratch, "no-such-key.pem"), "--authority-name", authorityName);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: "KEY_MISSING", message: expect.stringContaining("--previous-key") } });

    const after = run("--previous-key", retired, "--authority-name", authorityName);
    expect(after.code, after.stderr).toBe(0);
    const result = JSON.parse(after.stdout) as RunResult;
    expect(result.receipts.map((receipt) => receipt.key_id)).toEqual([keyB.key_id]);
    expect(result.anchors).toEqual([expect.objectContaining({ leaf_index: 1, tree_size: 2 })]);

    // The old receipt's proof, now against the checkpoint the new key signed, verifies with the published keys.
    const authority = createLocalAuthority({ home, previousKeys: [keyA], authorityName });
    try {
      const proof = (await authority.getAnchorProof((oldProof as AnchorProof).receipt_hash)) as AnchorProof;
      expect(proof).toMatchObject({ leaf_index: 0, tree_size: 2 });
      const keys = { keys: await authority.publicKeys(), note_verifier_keys: await authority.noteVerifierKeys() };
      expect(await verifyAnchorProof(oldProof as AnchorProof, keys)).toBe(true);
      expect(await verifyAnchorProof(proof, keys)).toBe(true);
    } finally {
      await authority.close();
    }
  });
});
