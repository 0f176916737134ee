import type * as Sdk from "@temporal/agent-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileAndImport, removeGeneratedModules, SDK_MODULE } from "./generated-module.js";

/**
 * `anchor TSAE -> clockchain signed ZTT` end to end: the compiled mission,
 * run against a real in-memory authority, returns a ZTT bundle for its
 * receipt that `verifyZtt` accepts with the authority's public keys alone.
 */

const SOURCE = `@temporal v4.6.2
@anchor Z1

mission nightly {
  require phase [330, 30]
  on ALLOW {
    execute backup
    anchor TSAE -> clockchain signed ZTT
  }
  on DENY {
    anchor TSAE -> clockchain
  }
}
`;

// 22:00 to 02:00 in Z1 (UTC+2) is 20:00 to 00:00 UTC.
const INSIDE = Date.parse("2026-11-25T22:30:00Z");
const OUTSIDE = Date.parse("2026-11-25T12:00:00Z");

let sdk: typeof Sdk;
let nightly: Sdk.Mission;

beforeAll(async () => {
  sdk = (await import(SDK_MODULE)) as typeof Sdk;
  nightly = (await compileAndImport(SOURCE)).exports.missions.nightly!;
});
afterAll(removeGeneratedModules);

describe("a mission whose receipts are ZTT-signed", () => {
  it("returns, inside its window, a bundle for its receipt that verifies offline with only the public keys", async () => {
    const authority = sdk.createMemoryAuthority();
    const ran: string[] = [];
    const result = await nightly.run({ sdk: authority, clock: () => INSIDE, tasks: { backup: () => void ran.push("backup") } });
    expect(result.verdict).toBe("ALLOW");
    expect(ran).toEqual(["backup"]);
    const [receipt] = result.receipts;
    const [bundle] = result.ztt!;
    expect(result.ztt).toHaveLength(1);
    expect(bundle!.certificate).toMatchObject({ swt_zone: 1, window_deg: [330, 30], start_unix_ms: Date.parse("2026-11-25T20:00:00Z"), end_unix_ms: Date.parse("2026-11-26T00:00:00Z") });
    // The signed payload is the receipt itself: its hash is the leaf the receipt is anchored as.
    expect(bundle!.payload_sha256).toBe(sdk.receiptHash(receipt!));
    expect(bundle!.payload_sha256).toBe(result.anchors[0]!.receipt_hash);

    // What an auditor has: the bundle, the receipt, and GET keys (public keys only).
    const publicKeys = JSON.parse(JSON.stringify(Object.values(await authority.publicKeys()))) as Sdk.PublicKeyJwk[];
    const verified = await sdk.verifyZtt(JSON.parse(JSON.stringify(bundle)) as Sdk.ZttBundle, publicKeys, { payload: sdk.canonicalJson(receipt) });
    expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verified.valid).toBe(true);

    // Another authority's keys, or another receipt, do not verify it.
    const stranger = Object.values(await sdk.createMemoryAuthority().publicKeys());
    expect((await sdk.verifyZtt(bundle!, stranger)).valid).toBe(false);
    expect((await sdk.verifyZtt(bundle!, publicKeys, { payload: sdk.canonicalJson({ ...receipt!, actor: "someone else" }) })).valid).toBe(false);
    await authority.close();
  });

  it("signs nothing when denied outside its window: the DENY block anchors a plain receipt", async () => {
    const authority = sdk.createMemoryAuthority();
    const result = await nightly.run({ sdk: authority, clock: () => OUTSIDE, tasks: { backup: () => undefined } });
    expect(result.verdict).toBe("DENY");
    expect(result.reasons).toEqual(["PHASE_OUTSIDE_WINDOW"]);
    expect(result.receipts).toHaveLength(1);
    expect(result.ztt).toBeUndefined();
    await authority.close();
  });

  it("runs no task when its authority cannot certify ZTT keys", async () => {
    const memory = sdk.createMemoryAuthority();
    // The authority's methods without zttSigner, as a remote authority is today.
    const plain: Sdk.Authority = {
      kind: "local",
      ready: () => memory.ready(),
      now: (options) => memory.now(options),
      issueReceipt: (request) => memory.issueReceipt(request),
      anchor: (receipt, options) => memory.anchor(receipt, options),
      getAnchorProof: (hash) => memory.getAnchorProof(hash),
      listAnchors: (tile) => memory.listAnchors(tile),
      publicKeys: () => memory.publicKeys(),
      close: () => memory.close(),
    };
    const ran: string[] = [];
    const failure = nightly.run({ sdk: plain, clock: () => INSIDE, tasks: { backup: () => void ran.push("backup") } });
    await expect(failure).rejects.toMatchObject({ code: "AUTHORITY_UNAVAILABLE", message: expect.stringContaining("cannot certify ZTT keys") });
    expect(ran).toEqual([]);
    await memory.close();
  });
});
