// A process writing a shared home until a deadline: issues receipts (some
// against challenges issued by this process), anchors them in bursts, and
// reads back proofs, from one or more local authorities. Prints one JSON
// line per acknowledged anchor, { receipt, proof }, then "done".
// Usage: node writer.mjs <home> <deadline unix ms> <authorities> <label>
import { contextAt, createTsaeRequest, sha256Hex } from "../../dist/index.js";
import { createLocalAuthority } from "../../dist/node/index.js";

const [home, deadlineArg, countArg, label] = process.argv.slice(2);
const deadline = Number(deadlineArg);
const authorities = Array.from({ length: Number(countArg) }, () => createLocalAuthority({ home, lockWaitMs: 120_000 }));
let serial = 0;

async function burst(authority) {
  const size = 1 + Math.floor(Math.random() * 12);
  const challenge = Math.random() < 0.3 ? await authority.issueChallenge() : undefined;
  const receipts = await Promise.all(
    Array.from({ length: size }, (_, i) => {
      const request = createTsaeRequest(contextAt(Date.now(), { zone: serial % 12 }), { scope: "test.shared.v1", action_hash_hex: sha256Hex(`${label} ${serial++}`) });
      return authority.issueReceipt(request, i === 0 && challenge !== undefined ? { challenge } : {});
    }),
  );
  const proofs = await Promise.all(receipts.map((receipt) => authority.anchor(receipt)));
  receipts.forEach((receipt, i) => process.stdout.write(`${JSON.stringify({ receipt, proof: proofs[i] })}\n`));
  // Reads catch up with the others' appends without the lock.
  const found = await authority.getAnchorProof(proofs[0].receipt_hash);
  if (found === undefined || found.leaf_index !== proofs[0].leaf_index) throw new Error(`${label}: anchored receipt not found again`);
  await authority.clockchainStatus();
}

async function loop(authority) {
  while (Date.now() < deadline) await burst(authority);
}

try {
  await Promise.all(authorities.map(loop));
} finally {
  await Promise.all(authorities.map((authority) => authority.close()));
}
process.stdout.write("done\n");
