/**
 * The home has no ephemeral key: a ZTT signer certified by a local authority's key (a Node home) signs, the bundle
 * is anchored there with in-process witnesses until FINAL, the window closes; then every file under the test's
 * folder (the home, the witnesses' state, the bundle written out, and TMPDIR pointed inside it for the run) is
 * searched for the ephemeral private key in every encoding it could be written in. The signer's key is
 * non-extractable, so the test learns its bytes by wrapping WebCrypto's generateKey: the pair is made extractable,
 * its private half exported, then imported again non-extractable and handed to the signer as before.
 */

import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { startInProcessWitnesses, type InProcessWitnesses } from "@temporal/witness/testing";
import { contextAt, tileVerifierKey } from "../src/index.js";
import { createLocalAuthority, homeParts } from "../src/node/index.js";
import { createZttSigner, verifyZtt, windowInterval, type AnchoredZttBundle } from "../src/ztt/index.js";
import { windowAround } from "./ztt-helpers.js";

const AUTHORITY_NAME = "ztt.home.test";
const ZONE = 5;

const generate = crypto.subtle.generateKey.bind(crypto.subtle);
const captured: { pkcs8: Buffer; seed: Buffer }[] = [];
let directory: string;
let savedTmpdir: string | undefined;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "ztt-home-"));
  savedTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = join(directory, "tmp");
  await mkdir(process.env.TMPDIR);
  vi.spyOn(crypto.subtle, "generateKey").mockImplementation(async (algorithm, extractable, usages) => {
    const name = typeof algorithm === "string" ? algorithm : algorithm.name;
    if (name !== "Ed25519" || extractable) return generate(algorithm, extractable, usages);
    // The original generateKey (crypto.subtle's now re-enters this mock), asked for an extractable pair so the seed can be captured; then re-imported as asked.
    const pair = await generate(algorithm, true, usages);
    if (!("privateKey" in pair)) throw new Error("Ed25519 generateKey gave one key, not a pair");
    const pkcs8 = Buffer.from(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
    const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    captured.push({ pkcs8, seed: Buffer.from(jwk.d as string, "base64url") });
    const privateKey = await crypto.subtle.importKey("pkcs8", pkcs8, "Ed25519", false, ["sign"]);
    return { publicKey: pair.publicKey, privateKey };
  });
});

afterAll(async () => {
  vi.restoreAllMocks();
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  await rm(directory, { recursive: true, force: true });
});

/** Every way the key could sit in a file: raw bytes, hex, base64, base64url, and the PKCS#8 DER and PEM body. */
function needles(key: { pkcs8: Buffer; seed: Buffer }): Buffer[] {
  const texts = [key.seed.toString("hex"), key.seed.toString("hex").toUpperCase(), key.seed.toString("base64"), key.seed.toString("base64url"), key.pkcs8.toString("base64")];
  return [key.seed, key.pkcs8, ...texts.map((text) => Buffer.from(text))];
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

async function filesContaining(folder: string, wanted: readonly Buffer[]): Promise<string[]> {
  const hits: string[] = [];
  for (const path of await filesUnder(folder)) {
    const bytes = await readFile(path);
    if (wanted.some((needle) => bytes.includes(needle))) hits.push(path);
  }
  return hits;
}

it("after the window closes no file under the home or the temp dir holds the ephemeral private key", { timeout: 30_000 }, async () => {
  const home = join(directory, "home");
  const startMs = Date.now();
  const context = contextAt(startMs, { zone: ZONE });
  const bootstrap = createLocalAuthority({ home, authorityName: AUTHORITY_NAME });
  const [authorityVkey] = Object.values(await bootstrap.noteVerifierKeys());
  await bootstrap.close();
  let witnesses: InProcessWitnesses | undefined;
  let authority: ReturnType<typeof createLocalAuthority> | undefined;
  let nowMs = startMs;
  const window = windowAround(startMs, ZONE);
  try {
    witnesses = await startInProcessWitnesses(join(directory, "witnesses"), ["witness.test/h1", "witness.test/h2"], [tileVerifierKey(authorityVkey as string, context.tile_id)]);
    const endpoints = witnesses.witnesses.map(({ url, vkey }) => ({ url, vkey }));
    authority = createLocalAuthority({ home, authorityName: AUTHORITY_NAME, witnessing: { witnesses: endpoints, quorum: 2, intervalMs: 20, requestTimeoutMs: 2_000 } });
    // The signer anchors each bundle itself (the anchor option), waiting for FINAL.
    const ztt = createZttSigner({
      window,
      zone: ZONE,
      authority: homeParts({ home, authorityName: AUTHORITY_NAME }).signer,
      clock: () => nowMs,
      anchor: { authority, quorum: 2, timeoutMs: 10_000 },
    });
    const bundle = (await ztt.sign("home payload")) as AnchoredZttBundle;
    expect(bundle.anchor.proof.finality).toBe("FINAL");
    expect(ztt.holdsKey()).toBe(true);
    const bundlePath = join(directory, "bundle.json");
    await writeFile(bundlePath, JSON.stringify(bundle));
    const keys = Object.values(await authority.publicKeys());
    expect((await verifyZtt(bundle, keys, { witnesses: endpoints.map((e) => e.vkey) })).valid).toBe(true);

    nowMs = windowInterval(window, ZONE, bundle.certificate.day_index).end_unix_ms + 1;
    expect(ztt.holdsKey()).toBe(false);
    await authority.close();
    authority = undefined;
    await witnesses.close();
    witnesses = undefined;

    expect(captured).toHaveLength(1);
    const files = await filesUnder(directory);
    expect(files.length).toBeGreaterThanOrEqual(5); // the home's key, ledger and witnessing state, the witnesses' files, the bundle
    expect(files.filter((path) => path.startsWith(home))).not.toEqual([]);
    // The search finds what is there: the ephemeral public key is in the bundle written out.
    expect(await filesContaining(directory, [Buffer.from(bundle.certificate.ephemeral_x)])).toEqual([bundlePath]);
    expect(await filesContaining(directory, needles(captured[0]!))).toEqual([]);
  } finally {
    await authority?.close();
    await witnesses?.close();
  }
});
