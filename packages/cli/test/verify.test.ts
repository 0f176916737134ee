/**
 * `temporalc verify`, run as a user runs it (the built CLI in a child process), on what a service really returns:
 * ZTT bundles from `POST ztt/sign` and receipts and proofs from `security/tsae` and `clockchain/anchor` of the
 * in-process stand-in, with the body of its `GET keys` as the keys file.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contextAt, createTsaeRequest, formatCosignerVerifierKey, sha256Hex, type AnchorProof, type KeySet, type Receipt, type ZttBundle } from "@temporal/agent-sdk";
import { createTestService } from "@temporal/agent-sdk/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, runCli, runCliAsync } from "./run-cli.js";
import { folderPerTest } from "./scratch.js";

const folder = folderPerTest("temporalc-verify-");

/** 2026-11-22T21:30Z: Z1 is at phase 352.5, inside [330, 30]. */
const T = Date.UTC(2026, 10, 22, 21, 30);

let keys: KeySet;
let otherKeys: KeySet;
let bundle: ZttBundle;
let receipt: Receipt;
let proof: AnchorProof;

beforeAll(async () => {
  const service = createTestService({ now: T, config: { ztt: { window: [330, 30], zone: "Z1" } } });
  const other = createTestService({ now: T });
  try {
    const client = service.client("enterprise");
    keys = await client.getKeys();
    otherKeys = await other.client().getKeys();
    bundle = await client.signZtt("deploy build 4711");
    receipt = await client.issueTsae(createTsaeRequest(contextAt(T, { zone: 2 }), { scope: "tests.verify.v1", action_hash_hex: sha256Hex("backup") }));
    proof = await client.anchorTsaeHash(receipt);
  } finally {
    await Promise.all([service.close(), other.close()]);
  }
});

/** Writes each file into the test's folder and runs `temporalc verify args` there. */
function verify(files: Record<string, unknown>, args: string[]) {
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder.current(), name), typeof content === "string" ? content : JSON.stringify(content, null, 2));
  const result = runCli(["verify", ...args], { cwd: folder.current() });
  // Whatever happens, no stack trace reaches the user.
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return result;
}

function checksOf(stdout: string): Record<string, boolean> {
  const report = JSON.parse(stdout) as { checks: { name: string; ok: boolean }[] };
  return Object.fromEntries(report.checks.map((c) => [c.name, c.ok]));
}

describe("temporalc verify: a ZTT bundle", () => {
  it("holds offline with GET keys alone: every check named, exit 0; --json says the same", () => {
    const text = verify({ "bundle.json": bundle, "keys.json": keys }, ["bundle.json", "--keys", "keys.json"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(
      [
        "valid: ZTT bundle, all 6 checks hold",
        ...["certificate_signature", "certificate_interval", "ephemeral_signature", "signing_context", "anchor_receipt", "anchor_inclusion"].map((name) => `  ok    ${name}`),
        `  certificate for window [330, 30] in zone Z1, ${new Date(bundle.certificate.start_unix_ms).toISOString()} .. ${new Date(bundle.certificate.end_unix_ms).toISOString()}`,
        "",
      ].join("\n"),
    );
    const json = verify({}, ["bundle.json", "--keys", "keys.json", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: true, kind: "ztt" });
  });

  it("checks the payload from --payload's bytes or the file's payload, and names the failing check (exit 1)", () => {
    writeFileSync(join(folder.current(), "payload.bin"), "deploy build 4711");
    expect(verify({ "bundle.json": bundle, "keys.json": keys }, ["bundle.json", "--keys", "keys.json", "--payload", "payload.bin"]).code).toBe(0);
    writeFileSync(join(folder.current(), "other.bin"), "deploy build 4712");
    const wrong = verify({}, ["bundle.json", "--keys", "keys.json", "--payload", "other.bin"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain("invalid: ZTT bundle, 1 of 7 checks fail");
    expect(wrong.stdout).toContain("  FAIL  payload_sha256: the payload does not hash to payload_sha256");
    const wrapped = verify({ "wrapped.json": { bundle, payload: "deploy build 4712" } }, ["wrapped.json", "--keys", "keys.json", "--json"]);
    expect(wrapped.code).toBe(1);
    expect(checksOf(wrapped.stdout).payload_sha256).toBe(false);
  });

  it("catches a bundle signed outside its window and another authority's keys", () => {
    const moved = { ...bundle, context: contextAt(T - 3 * 3_600_000, { zone: 1 }) };
    const movedResult = verify({ "moved.json": moved, "keys.json": keys }, ["moved.json", "--keys", "keys.json", "--json"]);
    expect(movedResult.code).toBe(1);
    expect(checksOf(movedResult.stdout)).toMatchObject({ signing_context: false, ephemeral_signature: false });
    const foreign = verify({ "bundle.json": bundle, "other-keys.json": otherKeys }, ["bundle.json", "--keys", "other-keys.json", "--json"]);
    expect(foreign.code).toBe(1);
    expect(checksOf(foreign.stdout)).toMatchObject({ certificate_signature: false, anchor_inclusion: false });
  });

  it("--log-keys checks the anchor against the log's keys and the certificate against --keys only; --require-anchor fails a stripped bundle", () => {
    const files = { "bundle.json": bundle, "keys.json": keys, "other-keys.json": otherKeys };
    const wrongLog = verify(files, ["bundle.json", "--keys", "keys.json", "--log-keys", "other-keys.json", "--json"]);
    expect(wrongLog.code).toBe(1);
    expect(checksOf(wrongLog.stdout)).toMatchObject({ certificate_signature: true, anchor_receipt: false, anchor_inclusion: false });
    const logAsCertifier = verify({}, ["bundle.json", "--keys", "other-keys.json", "--log-keys", "keys.json", "--json"]);
    expect(logAsCertifier.code).toBe(1);
    expect(checksOf(logAsCertifier.stdout)).toMatchObject({ certificate_signature: false, anchor_receipt: true, anchor_inclusion: true });
    const { anchor: _anchor, ...stripped } = bundle as ZttBundle & { anchor?: unknown };
    expect(verify({ "stripped.json": stripped }, ["stripped.json", "--keys", "keys.json"]).code).toBe(0);
    const required = verify({}, ["stripped.json", "--keys", "keys.json", "--require-anchor", "--json"]);
    expect(required.code).toBe(1);
    expect(checksOf(required.stdout).anchor_receipt).toBe(false);
  });

  it("--window and --zone name the opening the certificate must be for: another fails certificate_interval; a malformed one is a usage error", () => {
    const files = { "bundle.json": bundle, "keys.json": keys };
    expect(verify(files, ["bundle.json", "--keys", "keys.json", "--window", "330,30", "--zone", "Z1"]).code).toBe(0);
    const otherWindow = verify({}, ["bundle.json", "--keys", "keys.json", "--window", "0,360", "--json"]);
    expect(otherWindow.code).toBe(1);
    expect(checksOf(otherWindow.stdout)).toMatchObject({ certificate_interval: false, signing_context: true });
    const otherZone = verify({}, ["bundle.json", "--keys", "keys.json", "--zone", "Z2", "--json"]);
    expect(otherZone.code).toBe(1);
    expect(checksOf(otherZone.stdout).certificate_interval).toBe(false);
    const badWindow = verify({}, ["bundle.json", "--keys", "keys.json", "--window", "330"]);
    expect(badWindow.code).toBe(2);
    expect(badWindow.stderr).toContain("INVALID_WINDOW");
    const badZone = verify({}, ["bundle.json", "--keys", "keys.json", "--zone", "Z12"]);
    expect(badZone.code).toBe(2);
    expect(badZone.stderr).toContain("INVALID_ZONE");
    // The SDK's reader, as temporal-service --ztt-window/--ztt-zone: a zone's number is a zone, numbers are plain decimals.
    expect(verify({}, ["bundle.json", "--keys", "keys.json", "--window", " 330 , 30 ", "--zone", "1"]).code).toBe(0);
    const hex = verify({}, ["bundle.json", "--keys", "keys.json", "--window", "0x10,30"]);
    expect(hex.code).toBe(2);
    expect(hex.stderr).toBe('temporalc: --window "0x10,30": a window is two phases in degrees 0..360 as start,end, e.g. 330,30 (which wraps through 0) (INVALID_WINDOW)\n');
    // The flags are read before the files: a typo is named even when a file is missing too.
    expect(verify({}, ["missing.json", "--keys", "keys.json", "--zone", "z1"]).stderr).toBe('temporalc: --zone "z1": a zone is Z0..Z11, or its number 0..11 (INVALID_ZONE)\n');
  });

  it("with --witness, requires a FINAL anchor: a PROVISIONAL one fails witnessed_time", () => {
    const witness = formatCosignerVerifierKey("witness.example", new Uint8Array(32).fill(7));
    const result = verify({ "bundle.json": bundle, "keys.json": keys }, ["bundle.json", "--keys", "keys.json", "--witness", witness, "--json"]);
    expect(result.code).toBe(1);
    expect(checksOf(result.stdout).witnessed_time).toBe(false);
  });
});

describe("temporalc verify: receipts and proofs", () => {
  it("checks a receipt and its proof, and a proof alone", () => {
    const both = verify({ "anchored.json": { receipt, proof }, "keys.json": keys }, ["anchored.json", "--keys", "keys.json"]);
    expect(both.code).toBe(0);
    expect(both.stdout).toBe(["valid: receipt and proof, all 3 checks hold", "  ok    receipt_signature", "  ok    inclusion", "  ok    checkpoint_signature", ""].join("\n"));
    expect(checksOf(verify({ "proof.json": proof }, ["proof.json", "--keys", "keys.json", "--json"]).stdout)).toEqual({ inclusion: true, checkpoint_signature: true });
  });

  it("names what a change breaks: the receipt's hash, the checkpoint's signer", () => {
    const changed = { ...receipt, action_hash_hex: sha256Hex("something else") };
    expect(checksOf(verify({ "a.json": { receipt: changed, proof }, "keys.json": keys }, ["a.json", "--keys", "keys.json", "--json"]).stdout)).toEqual({
      receipt_signature: false,
      inclusion: false,
      checkpoint_signature: true,
    });
    const result = verify({ "c.json": { receipt, proof }, "other.json": otherKeys }, ["c.json", "--keys", "other.json"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("  FAIL  checkpoint_signature: no key in the keys file signed the proof's checkpoint");
    expect(result.stdout).toContain(`  FAIL  receipt_signature: no key with id "${receipt.key_id}" in the keys file`);
  });

  it("a bad --witness on a receipt and proof is a usage error, with or without --quorum (exit 2, INVALID_WITNESS)", () => {
    for (const quorum of [[], ["--quorum", "1"]]) {
      const result = verify({ "a.json": { receipt, proof }, "keys.json": keys }, ["a.json", "--keys", "keys.json", "--witness", "not-a-vkey", ...quorum]);
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toMatch(/--witness\/--quorum: .*\(INVALID_WITNESS\)$/);
    }
  });

  it("with --witness, a PROVISIONAL proof is not final (exit 1)", () => {
    const witnesses = [1, 2, 3].map((n) => formatCosignerVerifierKey(`w${n}.example`, new Uint8Array(32).fill(n)));
    const result = verify({ "a.json": { receipt, proof }, "keys.json": keys }, ["a.json", "--keys", "keys.json", "--witness", ...witnesses, "--quorum", "2", "--json"]);
    expect(result.code).toBe(1);
    expect(checksOf(result.stdout)).toMatchObject({ receipt_signature: true, finality: false });
  });
});

describe("temporalc verify: a FINAL anchor (docs/ztt.md's witnessed worked example)", () => {
  /** The example's bundle, payload, witnesses and keys, the keys as GET keys serves them. */
  const example = () => {
    const markdown = readFileSync(join(REPO_ROOT, "docs/ztt.md"), "utf8");
    const anchored = [...markdown.matchAll(/```json\n([\s\S]*?)\n```/g)].map((match) => JSON.parse(match[1] as string))[1] as {
      bundle: ZttBundle;
      payload: string;
      witnesses: string[];
      keys: { kid: string }[];
    };
    return { ...anchored, keySet: { keys: Object.fromEntries(anchored.keys.map((jwk) => [jwk.kid, jwk])) } };
  };

  it("brackets the signing with the witnessed time for the bundle, and finds its receipt's proof FINAL", () => {
    const { bundle: final, payload, witnesses, keySet } = example();
    const ztt = verify({ "final.json": { bundle: final, payload }, "keys.json": keySet }, ["final.json", "--keys", "keys.json", "--witness", ...witnesses]);
    expect(ztt.code).toBe(0);
    expect(ztt.stdout).toContain("valid: ZTT bundle, all 8 checks hold");
    expect(ztt.stdout).toContain("  ok    witnessed_time\n  witnessed at 2026-11-25T22:30:02.000Z\n");
    const anchor = verify({ "anchor.json": final.anchor }, ["anchor.json", "--keys", "keys.json", "--witness", ...witnesses, "--quorum", "2", "--json"]);
    expect(anchor.code).toBe(0);
    expect(JSON.parse(anchor.stdout)).toMatchObject({
      valid: true,
      witnessed_unix_s: 1795645802,
      checks: [{ name: "receipt_signature" }, { name: "inclusion" }, { name: "checkpoint_signature" }, { name: "finality", ok: true }],
    });
  });

  it("without --quorum, a receipt and proof is checked for a majority of the distinct witnesses: the same report as --quorum <majority>", async () => {
    const { bundle: final, witnesses, keySet } = example();
    // Two witnesses cosigned (at ...801 and ...802); two more that did not make four, whose majority is three.
    const silent = [3, 4].map((n) => formatCosignerVerifierKey(`w${n}.example`, new Uint8Array(32).fill(n)));
    for (const [name, content] of Object.entries({ "anchor.json": final.anchor, "keys.json": keySet })) writeFileSync(join(folder.current(), name), JSON.stringify(content));
    const run = async (trusted: string[], quorum: string[] = []) => {
      const result = await runCliAsync(["verify", "anchor.json", "--keys", "keys.json", ...trusted.flatMap((w) => ["--witness", w]), ...quorum, "--json"], { cwd: folder.current() });
      expect(result.stderr).not.toMatch(/\n\s+at /);
      return result;
    };
    const [majority, two, one, twice, four] = await Promise.all([
      run(witnesses),
      run(witnesses, ["--quorum", "2"]),
      run(witnesses, ["--quorum", "1"]),
      // Each key given twice: four keys but two witnesses, so still a majority of two (counting keys would ask for three).
      run([...witnesses, ...witnesses]),
      run([...witnesses, ...silent]),
    ]);
    expect(majority.code).toBe(0);
    expect(JSON.parse(majority.stdout)).toMatchObject({ valid: true, witnessed_unix_s: 1795645802 });
    expect(majority.stdout).toBe(two.stdout);
    expect(JSON.parse(one.stdout)).toMatchObject({ valid: true, witnessed_unix_s: 1795645801 });
    expect(twice.stdout).toBe(majority.stdout);
    expect(four.code).toBe(1);
    const finality = (JSON.parse(four.stdout) as { checks: { name: string; reason?: string }[] }).checks.find((c) => c.name === "finality");
    expect(finality?.reason).toBe(
      "not FINAL for quorum 3 of the given witnesses: cosignatures: 2 of the 4 trusted witnesses cosigned the checkpoint (w1.example, w2.example); the quorum is 3",
    );
  }, 60_000);
});

describe("temporalc verify: usage errors (exit 2, one line with a stable code)", () => {
  const usage = (files: Record<string, unknown>, args: string[], code: string, text: string) => {
    const result = verify(files, args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(text);
    expect(result.stderr.trim()).toMatch(new RegExp(`\\(${code}\\)$`));
  };

  it("a missing or unreadable file, bad JSON (with its line and column), an unknown shape, a bad keys file, bad witnesses", () => {
    usage({ "keys.json": keys }, ["nope.json", "--keys", "keys.json"], "FILE_NOT_FOUND", "cannot read the file nope.json: no such file or folder");
    usage({ "keys.json": keys }, [".", "--keys", "keys.json"], "FILE_UNREADABLE", "cannot read the file .: it is a folder");
    usage({ "bad.json": '{\n  "receipt": {},\n  "proof": }\n' }, ["bad.json", "--keys", "keys.json"], "INVALID_JSON", "bad.json:3:12: the file is not valid JSON");
    usage({ "keys.json": keys }, ["keys.json", "--keys", "keys.json"], "UNKNOWN_SHAPE", "keys.json: not something temporalc verify knows");
    usage({ "bundle.json": bundle }, ["bundle.json", "--keys", "bundle.json"], "INVALID_KEYS", "bundle.json: expected the body of the service's GET keys");
    usage({ "rsa.json": { keys: { a: { kty: "RSA" } } } }, ["bundle.json", "--keys", "rsa.json"], "INVALID_KEYS", 'rsa.json: keys["a"] is not an Ed25519 public key');
    usage({}, ["bundle.json", "--keys", "keys.json", "--quorum", "2"], "INVALID_WITNESS", "--quorum counts cosignatures");
    usage({}, ["bundle.json", "--keys", "keys.json", "--witness", "not-a-vkey"], "INVALID_WITNESS", "--witness/--quorum:");
  });

  it("--quorum above the distinct --witness keys is a usage error for either kind of file: a key given twice counts once", () => {
    const [a, b] = [1, 2].map((n) => formatCosignerVerifierKey(`w${n}.example`, new Uint8Array(32).fill(n))) as [string, string];
    const repeated = ["--witness", a, "--witness", a, "--witness", b];
    const text = "--quorum 3 needs at least as many distinct --witness keys, got 2 (of 3 given: a key given twice, or under two names, is one witness)";
    usage({ "a.json": { receipt, proof }, "keys.json": keys }, ["a.json", "--keys", "keys.json", ...repeated, "--quorum", "3"], "INVALID_WITNESS", text);
    usage({ "bundle.json": bundle, "keys.json": keys }, ["bundle.json", "--keys", "keys.json", ...repeated, "--quorum", "3"], "INVALID_WITNESS", text);
    // Two distinct witnesses can meet a quorum of two: the check runs (the proof is PROVISIONAL, so not final: exit 1).
    expect(verify({ "a.json": { receipt, proof }, "keys.json": keys }, ["a.json", "--keys", "keys.json", ...repeated, "--quorum", "2"]).code).toBe(1);
  });

  it("without --keys or a file: commander's usage error, exit 2; --help teaches with examples", () => {
    expect(verify({}, ["bundle.json"]).code).toBe(2);
    const help = runCli(["verify", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("$ temporalc verify bundle.json --keys keys.json");
    expect(help.stdout).toContain("GET /api/v1/keys");
  });
});
