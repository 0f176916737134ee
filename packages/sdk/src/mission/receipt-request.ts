import { canonicalJson } from "../core/canonical-json.js";
import { sha256Hex } from "../core/sha256.js";
import { createTsaeRequest } from "../core/tsae.js";
import type { TsaeRequest } from "../core/types.js";
import type { Decision, MissionSpec } from "./types.js";

/** The TSAE request of an `anchor` step: the decision's time and zone, and a hash of what the mission did so far. */
export function receiptRequest(spec: MissionSpec, decision: Decision, executed: readonly string[]): TsaeRequest {
  const { ctx } = decision;
  const action = {
    mission: spec.name,
    verdict: decision.verdict,
    reasons: decision.reasons,
    executed,
    day_index: ctx.day_index,
    phi_ticks: ctx.phi_ticks,
    swt_zone: ctx.swt_zone,
  };
  return createTsaeRequest(ctx, {
    scope: `missions.${spec.name.toLowerCase()}.v1`,
    action_hash_hex: sha256Hex(canonicalJson(action)),
  });
}
