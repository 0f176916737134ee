import { generateKeyPairSync, sign } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { noteVerifier, openNote } from "@temporal/agent-sdk";
import { Witness, cosignatureVerifier, createCosigner, formatAddCheckpointRequest, parseAddCheckpointRequest, readCosignature, type AddCheckpointOutcome } from "../src/index.js";
import { FileStateStore } from "../src/state-store.js";
import { verifiedLines } from "./independent.js";
import { TestLog } from "./test-log.js";

// The example request body of c2sp.org/tlog-witness v1.0.0.
const SPEC_REQUEST = `old 20852014
PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=
jrJZDmY8Y7SyJE0MWLpLozkIVMSMZcD5kvuKxPC3swk=
5+pKlUdi2LeF/BcMHBn+Ku6yhPGNCswZZD1X/6QgPd8=
/6WVhPs2CwSsb5rYBH5cjHV/wSmA79abXAwhXw3Kj/0=

example.com/behind-the-sofa
20852163
CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=

\u2014 example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=
\u2014 example.com/behind-the-sofa opLqBQsREYCgu6xQkYQwJr9fo45a62DN9EdmHXnZdXNqlcVGlCum2Wks+49/V6267UEjw6QUXTS5Rovnzv++qbSzm9Q=
`;

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

function cosigner() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = new Uint8Array(Buffer.from(publicKey.export({ format: "jwk" }).x as string, "base64url"));
  return createCosigner("witness.example/w1", raw, async (message) => new Uint8Array(sign(null, message, privateKey)));
}

describe("the add-checkpoint request body", () => {
  it("parses the spec's example and formats it back byte for byte", () => {
    const request = parseAddCheckpointRequest(SPEC_REQUEST);
    if ("malformed" in request) throw new Error(request.malformed);
    expect(request.oldSize).toBe(20852014);
    expect(request.proof).toHaveLength(4);
    expect(request.note.startsWith("example.com/behind-the-sofa\n20852163\n")).toBe(true);
    expect(formatAddCheckpointRequest(request)).toBe(SPEC_REQUEST);
  });

  it("round trip for any old size, proof and note", () => {
    const request = fc.record({
      oldSize: fc.nat({ max: Number.MAX_SAFE_INTEGER }),
      proof: fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { maxLength: 63 }),
      note: fc.stringMatching(/^[a-z]{1,8}\n[0-9]{1,4}\n[a-z]{1,8}\n\n\u2014 [a-z]{1,8} [A-Za-z]{8}\n$/),
    });
    fc.assert(
      fc.property(request, (r) => {
        expect(parseAddCheckpointRequest(formatAddCheckpointRequest(r))).toEqual(r);
      }),
    );
  });

  it.each([
    ["no blank line", "old 0\n"],
    ["no old line", "\nexample.com/log\n0\nAA==\n"],
    ["a leading zero", "old 01\n\nx\n"],
    ["a negative size", "old -1\n\nx\n"],
    ["two spaces", "old  1\n\nx\n"],
    ["a size past 2^53", "old 9007199254740993\n\nx\n"],
    ["a proof line that is not base64", "old 1\nnot base64!\n\nx\n"],
    ["a proof line of 31 bytes", `old 1\n${Buffer.alloc(31).toString("base64")}\n\nx\n`],
    ["64 proof lines", `old 1\n${`${Buffer.alloc(32).toString("base64")}\n`.repeat(64)}\nx\n`],
  ])("is malformed with %s", (_, body) => {
    expect(parseAddCheckpointRequest(body)).toHaveProperty("malformed");
  });
});

describe("Witness.addCheckpoint (C2SP tlog-witness v1.0.0)", () => {
  let directory: string;
  let store: FileStateStore;
  let log: TestLog;
  let witness: Witness;
  let now = NOW;
  const key = cosigner();

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "witness-unit-"));
    store = await FileStateStore.open(directory);
    log = new TestLog("example.com/log");
    witness = new Witness({ cosigner: key, logs: new Map([[log.origin, [await noteVerifier(log.vkey)]]]), store, now: () => now });
  });

  afterEach(async () => {
    await store.close();
    await rm(directory, { recursive: true, force: true });
  });

  const submit = async (oldSize: number, note: string | Promise<string>, proof: Uint8Array[] = []): Promise<AddCheckpointOutcome> =>
    witness.addCheckpoint(formatAddCheckpointRequest({ oldSize, proof, note: await note }));

  it("cosigns 0 -> 5 -> 13 -> 13, each cosignature valid at the request's second", async () => {
    const verifier = await cosignatureVerifier(key.vkey);
    for (const [old, size] of [
      [0, 5],
      [5, 13],
      [13, 13],
    ] as const) {
      log.append(size - log.size);
      const note = await log.checkpoint(size);
      now += 1500;
      const outcome = await submit(old, note, log.proof(old, size));
      expect(outcome.status).toBe(200);
      const cosigned = `${note}${(outcome as { cosignatures: string }).cosignatures}`;
      const opened = await openNote(cosigned, [verifier]);
      expect(readCosignature(opened.verified[0]!)?.timestamp).toBe(Math.floor(now / 1000));
      expect(verifiedLines(cosigned, key.vkey)).toHaveLength(1);
    }
  });

  it("404 for an unknown origin, 403 without a valid signature by a known key, 400 for a malformed checkpoint or old > size", async () => {
    const stranger = new TestLog("example.com/other").append(3);
    expect(await submit(0, stranger.checkpoint())).toMatchObject({ status: 404 });
    // Same origin, another key: its signature is from an unknown key, so none verifies.
    const impostor = new TestLog("example.com/log").append(3);
    expect(await submit(0, impostor.checkpoint())).toMatchObject({ status: 403 });
    // A known key whose signature fails: the note's text changed after signing.
    log.append(3);
    const tampered = (await log.checkpoint()).replace("\n3\n", "\n4\n");
    expect(await submit(0, tampered)).toMatchObject({ status: 403 });
    expect(await submit(0, "example.com/log\n3\nnot a hash\n\n\u2014 example.com/log AAAAAAA=\n")).toMatchObject({ status: 400 });
    expect(await witness.addCheckpoint("old 4\n\nexample.com/log\n")).toMatchObject({ status: 400 });
    expect(await submit(4, log.checkpoint())).toMatchObject({ status: 400, message: expect.stringContaining("larger") });
  });

  it("409 with the witness's size when the old size is not its latest", async () => {
    log.append(4);
    expect(await submit(2, log.checkpoint(), log.proof(2))).toEqual(expect.objectContaining({ status: 409, size: 0 }));
    expect(await submit(0, log.checkpoint(4))).toMatchObject({ status: 200 });
    log.append(4);
    expect(await submit(0, log.checkpoint(8))).toMatchObject({ status: 409, size: 4 });
    expect(await submit(6, log.checkpoint(8), log.proof(6))).toMatchObject({ status: 409, size: 4 });
    // An older checkpoint is a rollback: refused with the size it would roll back from.
    expect(await submit(2, log.checkpoint(2))).toMatchObject({ status: 409, size: 4 });
  });

  it("422 for a bad consistency proof, a proof from 0, or a size-0 checkpoint without the empty root", async () => {
    log.append(8);
    expect(await submit(0, log.checkpoint(8), log.proof(4, 8))).toMatchObject({ status: 422 });
    expect(await submit(0, log.checkpoint(0, log.root(3)))).toMatchObject({ status: 422 });
    expect(await submit(0, log.checkpoint(0))).toMatchObject({ status: 200 });
    expect(await submit(0, log.checkpoint(5))).toMatchObject({ status: 200 });
    const wrong = log.proof(5, 8);
    wrong[0] = new Uint8Array(32);
    expect(await submit(5, log.checkpoint(8), wrong)).toMatchObject({ status: 422 });
    expect(await submit(5, log.checkpoint(8), log.proof(5, 8).slice(1))).toMatchObject({ status: 422 });
    // The state did not move: the right proof still works.
    expect(await submit(5, log.checkpoint(8), log.proof(5, 8))).toMatchObject({ status: 200 });
    // A proof between equal trees is malformed, not evidence against the log.
    const kept = await readdir(join(directory, "evidence"));
    expect(kept).toHaveLength(1);
    expect(await submit(8, log.checkpoint(8), log.proof(5, 8))).toMatchObject({ status: 422 });
    expect(await readdir(join(directory, "evidence"))).toEqual(kept);
  });

  it("refuses a second root for the cosigned size with 409 (v1.0.0) and keeps both checkpoints as evidence", async () => {
    log.append(6);
    const cosigned = await log.checkpoint();
    expect(await submit(0, cosigned)).toMatchObject({ status: 200 });
    const forked = await log.checkpoint(6, new Uint8Array(32).fill(7));
    expect(await submit(6, forked)).toMatchObject({ status: 409, size: 6 });
    const files = await readdir(join(directory, "evidence"));
    expect(files).toHaveLength(1);
    const evidence = JSON.parse(await readFile(join(directory, "evidence", files[0]!), "utf8"));
    expect(evidence).toMatchObject({ origin: "example.com/log", kind: "fork", refusedNote: forked, cosigned: { size: 6, note: cosigned } });
    // The witness still holds the first root.
    expect(await submit(6, cosigned)).toMatchObject({ status: 200 });
  });

  it("of concurrent requests on the same old size exactly one is cosigned", async () => {
    log.append(10);
    const notes = await Promise.all([3, 5, 7, 9, 10].map((size) => log.checkpoint(size)));
    const outcomes = await Promise.all(notes.map((note) => submit(0, note)));
    expect(outcomes.filter((o) => o.status === 200)).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 409)).toHaveLength(4);
  });
});
