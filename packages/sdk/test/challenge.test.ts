import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  TsaeRequestError,
  challengeIssues,
  contextAt,
  createTsaeRequest,
  receiptHash,
  sha256Hex,
  verifyChallenge,
  verifyReceipt,
  type Challenge,
  type PublicKeyJwk,
  type Receipt,
  type TsaeIssueRequest,
} from "../src/index.js";
import { createLocalAuthority, type LocalAuthority } from "../src/node/index.js";
import { OutstandingChallenges } from "../src/authority/outstanding-challenges.js";
import { tempDir } from "./helpers.js";

const T0 = Date.UTC(2025, 6, 1, 8);
const request = (n: number) => createTsaeRequest(contextAt(T0, { zone: 5 }), { scope: "test.challenge.v1", action_hash_hex: sha256Hex(`action ${n}`) });

/** An authority whose clock the test sets. */
async function withAuthority<T>(use: (authority: LocalAuthority, clock: { now: number }, home: string) => Promise<T>, home?: string): Promise<T> {
  const dir = home ?? (await tempDir());
  const clock = { now: T0 };
  const authority = createLocalAuthority({ home: dir, clock: () => clock.now });
  try {
    return await use(authority, clock, dir);
  } finally {
    await authority.close();
  }
}

async function keyOf(authority: LocalAuthority): Promise<PublicKeyJwk> {
  return Object.values(await authority.publicKeys())[0] as PublicKeyJwk;
}

describe("challenges (core)", () => {
  it("are well formed only with exactly their six fields and an expiry after issuance", async () => {
    await withAuthority(async (authority) => {
      const challenge = await authority.issueChallenge();
      expect(challengeIssues(challenge)).toEqual([]);
      expect(challengeIssues({ ...challenge, extra: 1 }).map((i) => i.field)).toEqual(["extra"]);
      expect(challengeIssues({ ...challenge, nonce: "AB" }).map((i) => i.field)).toEqual(["nonce"]);
      expect(challengeIssues({ ...challenge, expires_unix_ms: challenge.issued_unix_ms }).map((i) => i.field)).toEqual(["expires_unix_ms"]);
      const { signature: _signature, ...unsigned } = challenge;
      expect(challengeIssues(unsigned).map((i) => i.field)).toEqual(["signature"]);
      expect(challengeIssues(null)).toHaveLength(1);
      expect(challengeIssues([])).toHaveLength(1);
    });
  });

  it("verify with the issuing key and fail after any change or with another key", async () => {
    const other = await withAuthority(async (authority) => keyOf(authority));
    await withAuthority(async (authority) => {
      const key = await keyOf(authority);
      const challenge = await authority.issueChallenge({ ttlMs: 5_000 });
      expect(challenge).toMatchObject({ challenge_version: 1, issued_unix_ms: T0, expires_unix_ms: T0 + 5_000, key_id: key.kid });
      expect(challenge.nonce).toMatch(/^[0-9a-f]{64}$/);
      expect(Object.isFrozen(challenge)).toBe(true);
      expect(await verifyChallenge(challenge, key)).toBe(true);
      expect(await verifyChallenge(challenge, other)).toBe(false);
      expect(await verifyChallenge({ ...challenge, expires_unix_ms: challenge.expires_unix_ms + 1 }, key)).toBe(false);
      expect(await verifyChallenge({ ...challenge, nonce: sha256Hex("other") }, key)).toBe(false);
      expect(await verifyChallenge({ ...challenge, extra: true } as Challenge, key)).toBe(false);
      expect(await verifyChallenge(null as unknown as Challenge, key)).toBe(false);
    });
  });
});

describe("LocalAuthority challenges", () => {
  it("issues fresh nonces with the requested lifetime and refuses lifetimes outside 1 s..1 h", async () => {
    await withAuthority(async (authority) => {
      const a = await authority.issueChallenge();
      const b = await authority.issueChallenge({ ttlMs: 3_600_000 });
      expect(a.expires_unix_ms - a.issued_unix_ms).toBe(60_000);
      expect(b.expires_unix_ms - b.issued_unix_ms).toBe(3_600_000);
      expect(a.nonce).not.toBe(b.nonce);
      for (const ttlMs of [999, 3_600_001, 1_500.5, Number.NaN, "60000", null]) {
        await expect(authority.issueChallenge({ ttlMs: ttlMs as number })).rejects.toMatchObject({ code: "INVALID_TTL", name: "TemporalRangeError" });
      }
    });
  });

  it("binds a receipt to a challenge with a signed challenge_nonce, once", async () => {
    const home = await tempDir();
    const hashes = await withAuthority(async (authority, clock) => {
      const key = await keyOf(authority);
      const challenge = await authority.issueChallenge();
      clock.now += 59_999;
      const receipt = await authority.issueReceipt(request(1), { challenge });
      expect(receipt.challenge_nonce).toBe(challenge.nonce);
      expect(receipt.issued_unix_ms).toBe(T0 + 59_999);
      expect(await verifyReceipt(receipt, key)).toBe(true);
      const { challenge_nonce: _nonce, ...stripped } = receipt;
      expect(await verifyReceipt(stripped, key)).toBe(false);
      expect(await verifyReceipt({ ...receipt, challenge_nonce: sha256Hex("other") }, key)).toBe(false);
      expect(receiptHash(receipt)).not.toBe(receiptHash(stripped));
      // Receipts with and without the field live in one ledger, which reopens (replays and verifies) fine.
      const plain = await authority.issueReceipt(request(2));
      expect(Object.hasOwn(plain, "challenge_nonce")).toBe(false);
      await authority.anchor(receipt);
      await authority.anchor(JSON.parse(JSON.stringify(plain)) as Receipt);
      await expect(authority.issueReceipt(request(3), { challenge })).rejects.toMatchObject({ code: "CHALLENGE_UNKNOWN" });
      return [receiptHash(receipt), receiptHash(plain)];
    }, home);
    await withAuthority(async (authority) => {
      for (const hash of hashes) expect(await authority.getAnchorProof(hash)).toMatchObject({ receipt_hash: hash });
    }, home);
  });

  it("accepts the challenge inside the request (the service's TsaeIssueRequest), not as an unknown field", async () => {
    await withAuthority(async (authority) => {
      const challenge = await authority.issueChallenge();
      const body: TsaeIssueRequest = JSON.parse(JSON.stringify({ ...request(1), challenge })) as TsaeIssueRequest;
      const receipt = await authority.issueReceipt(body);
      expect(receipt.challenge_nonce).toBe(challenge.nonce);
      expect(Object.hasOwn(receipt, "challenge")).toBe(false);
      const second = await authority.issueChallenge();
      await expect(authority.issueReceipt({ ...request(2), challenge: second }, { challenge })).rejects.toMatchObject({ code: "CHALLENGE_INVALID" });
      // Giving the same challenge both ways is one use of it.
      expect((await authority.issueReceipt({ ...request(3), challenge: second }, { challenge: second })).challenge_nonce).toBe(second.nonce);
      // Unknown fields other than challenge are still refused, naming only them.
      const error = await authority.issueReceipt({ ...request(4), extra: 1 } as TsaeIssueRequest).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TsaeRequestError);
      expect((error as TsaeRequestError).fields).toEqual(["extra"]);
    });
  });

  it("rejects malformed, foreign, tampered, expired and used challenges with distinct codes", async () => {
    const home = await tempDir();
    const foreign = await withAuthority(async (authority) => authority.issueChallenge());
    const used = await withAuthority(async (authority) => {
      const challenge = await authority.issueChallenge();
      await authority.issueReceipt(request(0), { challenge });
      return challenge;
    }, home);
    await withAuthority(async (authority, clock) => {
      const challenge = await authority.issueChallenge({ ttlMs: 1_000 });
      const cases: [unknown, string][] = [
        [{ ...challenge, nonce: "xyz" }, "CHALLENGE_INVALID"],
        [{ ...challenge, extra: 1 }, "CHALLENGE_INVALID"],
        ["not a challenge", "CHALLENGE_INVALID"],
        [foreign, "CHALLENGE_INVALID"],
        [{ ...challenge, expires_unix_ms: challenge.expires_unix_ms + 1 }, "CHALLENGE_INVALID"],
        [{ ...challenge, key_id: foreign.key_id }, "CHALLENGE_INVALID"],
        [used, "CHALLENGE_UNKNOWN"],
      ];
      for (const [bad, code] of cases) {
        await expect(authority.issueReceipt(request(1), { challenge: bad as Challenge })).rejects.toMatchObject({ code, name: "TemporalError" });
      }
      // None of that used the real challenge up; time does.
      clock.now = challenge.expires_unix_ms;
      await expect(authority.issueReceipt(request(1), { challenge })).rejects.toMatchObject({ code: "CHALLENGE_EXPIRED" });
      // A bad request is refused before the challenge is looked at.
      await expect(authority.issueReceipt({ ...request(1), scope: "nope" }, { challenge: "junk" as unknown as Challenge })).rejects.toBeInstanceOf(TsaeRequestError);
    }, home);
  });

  it("keeps challenges in the home: one issued before a restart, or by another authority there, is used once", async () => {
    const home = await tempDir();
    const beforeRestart = await withAuthority(async (authority) => authority.issueChallenge(), home);
    await withAuthority(async (authority) => {
      const other = createLocalAuthority({ home, clock: () => T0 });
      try {
        expect((await authority.issueReceipt(request(1), { challenge: beforeRestart })).challenge_nonce).toBe(beforeRestart.nonce);
        await expect(other.issueReceipt(request(2), { challenge: beforeRestart })).rejects.toMatchObject({ code: "CHALLENGE_UNKNOWN" });
        const fromOther = await other.issueChallenge();
        expect((await authority.issueReceipt(request(3), { challenge: fromOther })).challenge_nonce).toBe(fromOther.nonce);
      } finally {
        await other.close();
      }
    }, home);
  });

  it("lets exactly one of concurrent uses of a challenge succeed", async () => {
    await withAuthority(async (authority) => {
      const challenge = await authority.issueChallenge();
      const results = await Promise.allSettled(Array.from({ length: 8 }, (_, n) => authority.issueReceipt(request(n), { challenge })));
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "CHALLENGE_UNKNOWN" });
    });
  });
});

describe("OutstandingChallenges", () => {
  it("behaves like a capped map of unexpired nonces (model test)", () => {
    type Op = { kind: "add"; ttl: number; advance: number } | { kind: "take"; pick: number; advance: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant("add" as const), ttl: fc.integer({ min: 1, max: 50 }), advance: fc.integer({ min: 0, max: 10 }) }),
      fc.record({ kind: fc.constant("take" as const), pick: fc.nat(), advance: fc.integer({ min: 0, max: 10 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(op, { maxLength: 300 }), (capacity, ops) => {
        const set = new OutstandingChallenges(capacity);
        const model = new Map<string, number>();
        let now = 0;
        let issued = 0;
        for (const o of ops) {
          now += o.advance;
          if (o.kind === "add") {
            const nonce = `n${issued++}`;
            set.add(nonce, now + o.ttl, now);
            for (const [n, expires] of model) if (expires <= now) model.delete(n);
            while (model.size >= capacity) model.delete(model.keys().next().value as string);
            model.set(nonce, now + o.ttl);
          } else {
            const nonce = `n${o.pick % Math.max(1, issued)}`;
            // Callers check expiry first; the set only answers for unexpired nonces.
            const live = model.has(nonce) && (model.get(nonce) as number) > now;
            set.purge(now);
            expect(set.take(nonce)).toBe(live);
            model.delete(nonce);
          }
          expect(set.size).toBeLessThanOrEqual(capacity);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("keeps memory bounded under a flood of adds and uses", () => {
    const set = new OutstandingChallenges(1_000);
    for (let i = 0; i < 50_000; i++) {
      set.add(`n${i}`, i + 3_600_000, i);
      if (i % 2 === 0) set.take(`n${i}`);
    }
    expect(set.size).toBe(1_000);
  });
});
