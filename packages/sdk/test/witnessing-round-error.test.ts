/**
 * The witnessing status keeps a round's failure (`round_error`) apart from the store's (`store_error`): a store that
 * saves and reads fine but whose turn for a round cannot be had (a shared store's lock) shows the round's failure
 * there, not as the store's (issue 17 review). No witness is asked: the round fails before any submission.
 */
import { webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MemorySigner, MemoryWitnessingStore, contextAt, createMemoryAuthority, createTsaeRequest, formatCosignerVerifierKey, sha256Hex, type WitnessingStatus } from "../src/index.js";
import { ed25519KeyPair } from "./helpers.js";

const T1 = contextAt(Date.UTC(2026, 6, 1, 12), { zone: 1 });

/** A real Ed25519 witness key's vkey (the witness itself never answers: its URL is never reached). */
async function witnessVkey(name: string): Promise<string> {
  const pair = await ed25519KeyPair(true);
  return formatCosignerVerifierKey(name, new Uint8Array(await webcrypto.subtle.exportKey("raw", pair.publicKey)));
}

/** Saves and reads in memory; its turns always fail, as when the shared database's lock cannot be taken. */
class NoTurnStore extends MemoryWitnessingStore {
  readonly shared = { exclusively: () => Promise.reject(new Error("the round's lock is unavailable")) };
}

describe("witnessing round_error", { timeout: 15_000 }, () => {
  it("a round that fails is reported as round_error while store_error stays null", async () => {
    const store = new NoTurnStore();
    const witnesses = await Promise.all(["w.test/1", "w.test/2"].map(async (name, i) => ({ url: `http://127.0.0.1:9/dead${i}`, vkey: await witnessVkey(name) })));
    const authority = createMemoryAuthority({ signer: new MemorySigner(), authorityName: "log.round-error.test", witnessing: { witnesses, quorum: 2, intervalMs: 20, store } });
    try {
      await authority.anchor(await authority.issueReceipt(createTsaeRequest(T1, { scope: "test.round-error.v1", action_hash_hex: sha256Hex("round error") })));
      const deadline = Date.now() + 10_000;
      let status: WitnessingStatus;
      do {
        status = (await authority.clockchainStatus()).witnessing as WitnessingStatus;
        if (status.round_error !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      } while (Date.now() < deadline);
      expect(status.round_error).toBe("a witnessing round failed: the round's lock is unavailable");
      expect(status.store_error).toBeNull();
      // Every witness still UNKNOWN: the round failed before asking any, which is not a witness's failure.
      expect(status.witnesses.map((witness) => [witness.state, witness.last_error])).toEqual([
        ["UNKNOWN", null],
        ["UNKNOWN", null],
      ]);
    } finally {
      await authority.close();
    }
  });
});
