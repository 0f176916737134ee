// The test page: the compiled missions, bundled for the browser, driven by chromium.test.ts through window.missionPage.
import * as sdk from "@temporal/agent-sdk";
import { audited_shift, late_shift } from "./src/shifts.mjs";

const at = (iso) => () => Date.parse(iso);

/** Task functions that record which ran, and at which phase. */
function recordingTasks(names) {
  const ran = [];
  const tasks = Object.fromEntries(names.map((name) => [name, (ctx) => void ran.push(`${name}@${ctx.phase_deg}`)]));
  return { ran, tasks };
}

async function evaluateAt(iso) {
  const decision = await late_shift.evaluate({ clock: at(iso) });
  return { verdict: decision.verdict, reasons: decision.reasons, phase_deg: decision.ctx.phase_deg, next_open_unix_ms: decision.next_open_unix_ms ?? null };
}

async function runAt(iso) {
  const { ran, tasks } = recordingTasks(["open_gate", "notify", "log_denied"]);
  const result = await late_shift.run({ clock: at(iso), tasks });
  return { verdict: result.verdict, executed: result.executed, ran, receipts: result.receipts.length, anchors: result.anchors.length };
}

/** Runs the anchoring mission with `authority` (undefined: the default) and verifies what it anchored with that authority's key. */
async function runAudited(iso, authority) {
  const { ran, tasks } = recordingTasks(["open_gate"]);
  const result = await audited_shift.run({ clock: at(iso), tasks, ...(authority === undefined ? {} : { sdk: authority }) });
  authority ??= sdk.defaultSdk();
  const [receipt] = result.receipts;
  const [anchor] = result.anchors;
  const key = (await authority.publicKeys())[receipt.key_id];
  const tampered = { ...receipt, scope: `${receipt.scope}.tampered` };
  return {
    verdict: result.verdict,
    executed: result.executed,
    ran,
    receipts: result.receipts.length,
    anchors: result.anchors.length,
    anchoredThisReceipt: anchor.receipt_hash === sdk.receiptHash(receipt),
    receiptVerifies: await sdk.verifyReceipt(receipt, key),
    anchorVerifies: await sdk.verifyAnchorProof(anchor, key),
    tamperedVerifies: await sdk.verifyReceipt(tampered, key),
  };
}

window.missionPage = {
  evaluateAt,
  runAt,
  runWithMemoryAuthority: (iso) => runAudited(iso, sdk.createMemoryAuthority()),
  runWithDefaultAuthority: (iso) => runAudited(iso, undefined),
};
window.missionPageReady = true;
