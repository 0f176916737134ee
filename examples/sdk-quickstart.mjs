// @temporal/agent-sdk quickstart: no server, no configuration.
// From the repository root, after `npx tsc -b packages/sdk`: node examples/sdk-quickstart.mjs
import {
  PhaseWindowError,
  allow,
  canonicalJson,
  contextAt,
  createTsaeRequest,
  defaultSdk,
  diff,
  enforce,
  nextOpen,
  now,
  sha256Hex,
  tpeVector,
  verifyAnchorProof,
  verifyReceipt,
} from "@temporal/agent-sdk";

// 1. Where are we in the daily cycle? Zone Z1 is 30 degrees ahead of UTC.
const ctx = await now({ zone: "Z1" });
console.log(`phase ${ctx.phase_deg.toFixed(3)} deg in Z${ctx.swt_zone} (UTC ${ctx.utc}), tile ${ctx.tile_id}`);

// 2. Gate work on a phase window: allow() answers, enforce() throws.
const window = [200, 280];
if (allow(ctx, window)) {
  console.log(`inside [${window}]`);
} else {
  console.log(`outside [${window}], next open at ${new Date(nextOpen(ctx, window)).toISOString()}`);
}
try {
  enforce(ctx, [(ctx.phase_deg + 1) % 360, (ctx.phase_deg + 1) % 360]); // a single point, 1 degree (4 minutes) ahead
} catch (error) {
  if (!(error instanceof PhaseWindowError)) throw error;
  console.log(`enforce: ${error.code}, reopens in ${diff(ctx, contextAt(error.next_open_unix_ms)).iso8601}`);
}

// 3. Sign an audit receipt for an action and anchor it in the local clockchain
//    ($TEMPORAL_HOME, else ./.temporal; created on first use).
const sdk = defaultSdk();
const action = { task: "rebalance", batch: 7 };
const request = createTsaeRequest(ctx, { scope: "demo.rebalance.v1", action_hash_hex: sha256Hex(canonicalJson(action)) });
const receipt = await sdk.issueReceipt(request);
const proof = await sdk.anchor(receipt);
const [publicKey] = Object.values(await sdk.publicKeys());
console.log(`receipt verifies: ${await verifyReceipt(receipt, publicKey)}`);
console.log(`anchor verifies: ${await verifyAnchorProof(proof, publicKey)} (leaf ${proof.leaf_index} of ${proof.tree_size} in tile ${proof.tile_id})`);

// 4. A time embedding for models: 6 numbers per harmonic (daily, weekly, yearly sin/cos).
console.log(`tpe: ${tpeVector(ctx, { harmonics: 1 }).map((x) => x.toFixed(3)).join(" ")}`);

await sdk.close();
