/**
 * `temporalc ledger verify|status --previous-key`: a home whose key was rotated (the old `signing-key.pem` moved
 * aside, a new one in its place, the log continued under it) verifies with the retired key given, and says what is
 * missing without it.
 */
import { mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryChallengeStore, contextAt, createAuthority, createTsaeRequest, sha256Hex, type ComposedAuthority } from "@temporal/agent-sdk";
import { FileLogStore, KeyFileSigner, createLocalAuthority, createSigningKeyFile, homePaths, readVerifyingKeyFile } from "@temporal/agent-sdk/node";
import { runCli } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "temporalc-rotation-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const T0 = Date.UTC(2026, 10, 25, 8);

async function anchorOne(authority: ComposedAuthority, tag: string): Promise<void> {
  try {
    await authority.anchor(await authority.issueReceipt(createTsaeRequest(contextAt(T0, { zone: 4 }), { scope: "cli.rotation.v1", action_hash_hex: sha256Hex(tag) })));
  } finally {
    await authority.close();
  }
}

describe("temporalc ledger on a rotated home", () => {
  it("verifies with --previous-key naming the retired key, and refuses without it (exit 2, naming the missing key)", { timeout: 120_000 }, async () => {
    const home = join(scratch, "home");
    const paths = homePaths(home);
    await anchorOne(createLocalAuthority({ home, clock: () => T0 }), "under A");
    const retired = join(scratch, "key-a.pem");
    renameSync(paths.signingKey, retired);
    await createSigningKeyFile(paths.signingKey);
    const keyA = await readVerifyingKeyFile(retired);
    await anchorOne(
      createAuthority({
        signer: new KeyFileSigner(paths.signingKey),
        log: new FileLogStore(paths),
        challenges: new MemoryChallengeStore(),
        clock: () => T0 + 1,
        previousKeys: [keyA],
        authorityName: `temporal-authority/${keyA.key_id}`,
      }),
      "under B",
    );

    const refused = runCli(["ledger", "verify", "--home", home]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /checkpoint 0 \(tile \d+\) is signed under temporal-authority\/\S+ by note key ID [0-9a-f]{8}, which is none of this node's keys.*With temporalc ledger, give each retired key's file with --previous-key <file> \(LOG_KEY_UNKNOWN\)\n$/s,
    );
    const missing = runCli(["ledger", "verify", "--home", home, "--previous-key", join(scratch, "no-such-key.pem")]);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      expect.stringContaining(`key file ${join(scratch, "no-such-key.pem")} cannot be read: no such file or folder; give the path of the key's PEM file (KEY_MISSING)\n`),
    ]);
    const verified = runCli(["ledger", "verify", "--home", home, "--previous-key", retired, "--json"]);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ valid: true, records: 2, anchors: 2, tiles: 1 });
    expect(runCli(["ledger", "status", "--home", home, "--previous-key", retired]).code).toBe(0);
  });
});
