/**
 * A home written by the code before heads became checkpoints (format 1,
 * the committed fixture) opens after an automatic migration that loses
 * nothing, keeps a backup, and runs once however many processes open it.
 */
import { spawn } from "node:child_process";
import { chmod, copyFile, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { crc32 } from "node:zlib";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MemorySigner, contextAt, createAuthority, createTsaeRequest, receiptHash, sha256Hex, verifyAnchorProof, type PublicKeyJwk, type Receipt } from "../src/index.js";
import { createLocalAuthority, homeParts } from "../src/node/index.js";
import { LEDGER_FORMAT, ledgerFormat, migrateLedger } from "../src/node/ledger-migration.js";
import { tempDir } from "./helpers.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/format1-home/", import.meta.url));
const SDK_NODE_DIST = fileURLToPath(new URL("../dist/node/index.js", import.meta.url));

interface Anchored {
  readonly receipt: Receipt;
  readonly receipt_hash: string;
  readonly tile_id: number;
  readonly leaf_index: number;
}

async function format1Home(): Promise<string> {
  const home = join(await tempDir(), "home");
  await mkdir(home, { mode: 0o700 });
  await copyFile(join(FIXTURE, "clockchain.log"), join(home, "clockchain.log"));
  await copyFile(join(FIXTURE, "signing-key.pem"), join(home, "signing-key.pem"));
  await chmod(join(home, "signing-key.pem"), 0o600);
  return home;
}

const fixtureAnchors = async (): Promise<Anchored[]> => JSON.parse(await readFile(join(FIXTURE, "anchored.json"), "utf8")) as Anchored[];

describe("migrating a format-1 home", () => {
  it("opens it after migrating: every old receipt keeps its hash, tile and leaf, and its new proof verifies with the public key", async () => {
    const home = await format1Home();
    const original = await readFile(join(home, "clockchain.log"));
    expect(await ledgerFormat(join(home, "clockchain.log"))).toBe(1);
    const anchored = await fixtureAnchors();
    expect(anchored.length).toBeGreaterThan(5);
    const authority = createLocalAuthority({ home });
    try {
      const jwk = Object.values(await authority.publicKeys())[0] as PublicKeyJwk;
      for (const { receipt, receipt_hash, tile_id, leaf_index } of anchored) {
        expect(receiptHash(receipt)).toBe(receipt_hash);
        const proof = await authority.getAnchorProof(receipt_hash);
        expect(proof).toMatchObject({ receipt_hash, tile_id, leaf_index });
        expect(await verifyAnchorProof(proof!, jwk)).toBe(true);
        expect(await authority.verifyAnchored(receipt, proof)).toEqual({ signature: true, inclusion: true, chain: true, valid: true });
      }
      const status = await authority.clockchainStatus();
      expect(status).toMatchObject({ chain_valid: true, anchors: anchored.length });
      expect(status.last_checkpoint?.origin).toMatch(new RegExp(`^temporal-authority/${jwk.kid}/tile/`));
      // The old receipts anchor again as themselves, and new ones continue the chain.
      expect(await authority.anchor(anchored[0]!.receipt)).toMatchObject({ leaf_index: anchored[0]!.leaf_index });
    } finally {
      await authority.close();
    }
    expect(await ledgerFormat(join(home, "clockchain.log"))).toBe(LEDGER_FORMAT);
    const backups = (await readdir(home)).filter((name) => /^clockchain\.log\.v1-\d+\.bak$/.test(name));
    expect(backups).toHaveLength(1);
    expect(await readFile(join(home, backups[0]!))).toEqual(original);
    expect((await readdir(home)).filter((name) => name.includes("migrating"))).toEqual([]);
    // Idempotent: nothing more to do.
    expect(await migrateLedger(home)).toMatchObject({ migrated: false });
  });

  it("signs the migrated checkpoints with the authority name the home's authority is configured with", async () => {
    const home = await format1Home();
    const anchored = await fixtureAnchors();
    const authority = createLocalAuthority({ home, authorityName: "migration.example" });
    try {
      const jwk = Object.values(await authority.publicKeys())[0] as PublicKeyJwk;
      const { last_checkpoint } = await authority.clockchainStatus();
      expect(last_checkpoint?.origin).toMatch(/^migration\.example\/tile\//);
      for (const { receipt, receipt_hash } of anchored) {
        const proof = await authority.getAnchorProof(receipt_hash);
        expect(proof?.checkpoint.origin).toMatch(/^migration\.example\/tile\//);
        expect(await verifyAnchorProof(proof!, jwk)).toBe(true);
        expect(await authority.verifyAnchored(receipt, proof)).toMatchObject({ valid: true });
      }
      // New checkpoints continue the chain under the same name.
      const fresh = await authority.anchor(
        await authority.issueReceipt(createTsaeRequest(contextAt(Date.UTC(2026, 0, 5), { zone: 1 }), { scope: "test.migration.v1", action_hash_hex: sha256Hex("after migration") })),
      );
      expect(fresh.checkpoint.origin).toMatch(/^migration\.example\/tile\//);
    } finally {
      await authority.close();
    }
    await expect(migrateLedger(await format1Home(), { authorityName: "has space" })).rejects.toMatchObject({ code: "INVALID_NOTE_KEY" });
  });

  it("migrates once when several processes open the home at the same time, and each reads the migrated ledger", async () => {
    const home = await format1Home();
    const anchored = await fixtureAnchors();
    const script = `
      import { createLocalAuthority } from ${JSON.stringify(SDK_NODE_DIST)};
      const authority = createLocalAuthority({ home: process.argv[1], lockWaitMs: 60000 });
      const status = await authority.clockchainStatus();
      await authority.close();
      console.log(JSON.stringify({ anchors: status.anchors, valid: status.chain_valid, sequence: status.last_checkpoint.sequence }));
    `;
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ["--input-type=module", "-e", script, home], { stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
        child.on("error", reject);
        // "close", not "exit": at "exit" the child's last output may still be unread.
        child.on("close", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}: ${err}`))));
      });
    const outputs = await Promise.all([run(), run(), run(), run()]);
    const expected = JSON.parse(outputs[0]) as { anchors: number; valid: boolean };
    expect(expected).toMatchObject({ anchors: anchored.length, valid: true });
    for (const output of outputs) expect(JSON.parse(output)).toEqual(expected);
    expect((await readdir(home)).filter((name) => name.endsWith(".bak"))).toHaveLength(1);
  }, 120_000);

  it("refuses to open when it cannot migrate, naming the command, and leaves the ledger as it was", async () => {
    const home = await format1Home();
    const original = await readFile(join(home, "clockchain.log"));
    // An authority signing with another key than the home's: the home's key file cannot re-sign for it.
    const { log, challenges } = homeParts({ home });
    const foreign = createAuthority({ signer: new MemorySigner(), log, challenges });
    await expect(foreign.clockchainStatus()).rejects.toMatchObject({
      code: "LEDGER_MIGRATION_REQUIRED",
      message: expect.stringContaining(`temporalc ledger migrate --home ${home}`),
    });
    await foreign.close();
    expect(await readFile(join(home, "clockchain.log"))).toEqual(original);
    // No key at all: nothing can re-sign the ledger.
    await rm(join(home, "signing-key.pem"));
    await expect(migrateLedger(home, { lockWaitMs: 2000 })).rejects.toMatchObject({ code: "KEY_MISSING" });
    expect(await readFile(join(home, "clockchain.log"))).toEqual(original);
    expect((await readdir(home)).sort()).toEqual(["clockchain.log"]);
  });

  it("refuses a format-1 ledger that does not verify, changing nothing", async () => {
    const home = await format1Home();
    const ledger = await readFile(join(home, "clockchain.log"));
    const text = ledger.toString("latin1");
    // Re-sign nothing: swap one hex digit of a head signature inside the first record and fix up its CRC.
    const at = text.indexOf('"signature":"', text.indexOf('"heads"')) + 13;
    const damaged = Buffer.from(ledger);
    damaged[at] = damaged[at] === 0x30 ? 0x31 : 0x30;
    const length = damaged.readUInt32BE(4);
    damaged.writeUInt32BE(crc32(damaged.subarray(12, 12 + length)), 8);
    await writeFile(join(home, "clockchain.log"), damaged);
    await expect(migrateLedger(home)).rejects.toMatchObject({ code: "LEDGER_CORRUPT", reason: "HEAD_SIGNATURE", offset: 0 });
    expect(await readFile(join(home, "clockchain.log"))).toEqual(damaged);
    expect((await readdir(home)).sort()).toEqual(["clockchain.log", "signing-key.pem"]);
  });
});
