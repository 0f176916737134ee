// Testing code that calls the Temporal Permission Service, with no server:
// the stand-in from @temporal/agent-sdk/testing answers the client's fetch in this process.
import assert from "node:assert/strict";
import { TemporalApiError, createClient, createTsaeRequest, sha256Hex, verifyAnchorProof, verifyReceipt } from "@temporal/agent-sdk";
import { createTestService } from "@temporal/agent-sdk/testing";

// The code under test: backs up only in the night window [300, 30] of zone 1, and anchors a receipt of it.
async function nightlyBackup(client) {
  const { allow, ctx } = await client.checkAllow([300, 30], { zone: 1 });
  if (!allow) return undefined;
  const receipt = await client.issueTsae(createTsaeRequest(ctx, { scope: "backup.nightly.v1", action_hash_hex: sha256Hex("backup") }));
  return { receipt, proof: await client.anchorTsaeHash(receipt) };
}

const service = createTestService({
  now: new Date("2026-11-22T12:00:00Z"),
  apiKeys: { enterprise: "tps_example_key" }, // the key the code under test would read from its environment
  config: { authority_name: "tps.example.com" },
});
const client = createClient({ baseUrl: service.baseUrl, apiKey: "tps_example_key", fetch: service.fetch });

assert.equal(await nightlyBackup(client), undefined); // noon: outside the window
service.clock.set(new Date("2026-11-22T21:30:00Z"));
const { receipt, proof } = await nightlyBackup(client);

const keys = await service.publicKeys();
assert.equal(receipt.issued_unix_ms, Date.parse("2026-11-22T21:30:00Z")); // the service's clock, as set
assert.equal(await verifyReceipt(receipt, keys[receipt.key_id]), true);
assert.equal(await verifyAnchorProof(proof, keys[receipt.key_id]), true);
assert.equal(proof.checkpoint.origin, `tps.example.com/tile/${proof.tile_id}`);

// Refusals are the service's own: status, code, message and details.
const developer = service.client("developer");
await assert.rejects(developer.getClockchainStatus(), (error) => error instanceof TemporalApiError && error.status === 403 && error.code === "FORBIDDEN");
await assert.rejects(client.checkAllow([0, 400]), (error) => error.code === "VALIDATION_FAILED" && error.details[0].field === "body.window[1]");

await service.close();
console.log(`nightly backup anchored in ${proof.checkpoint.origin}; refusals as the service's`);
