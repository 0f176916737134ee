import type { Tier } from "../core/index.js";

/** Access tiers, lowest first (spec section 5). */
export const TIERS: readonly Tier[] = ["public", "developer", "managed", "quantum", "enterprise"];

export function isTier(value: unknown): value is Tier {
  return typeof value === "string" && (TIERS as readonly string[]).includes(value);
}

/** True when a caller of tier `have` may use an endpoint of tier `need`: each tier includes every lower one. */
export function tierAllows(have: Tier, need: Tier): boolean {
  return TIERS.indexOf(have) >= TIERS.indexOf(need);
}
