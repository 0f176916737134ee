import type { CarbonRequirement, HsBlochRequirement } from "./ast.js";

/**
 * Several requirements on one quantity all hold exactly when the strictest
 * one does; the checker warns about the others and code generation emits
 * only the strictest.
 */
export function strictestCarbon(requirements: readonly CarbonRequirement[]): CarbonRequirement | undefined {
  return strictest(requirements, (a, b) => a.threshold.value < b.threshold.value || (a.threshold.value === b.threshold.value && a.operator === "<" && b.operator === "<="));
}

export function strictestHsBloch(requirements: readonly HsBlochRequirement[]): HsBlochRequirement | undefined {
  return strictest(requirements, (a, b) => a.threshold.value > b.threshold.value || (a.threshold.value === b.threshold.value && a.operator === ">" && b.operator === ">="));
}

function strictest<R>(requirements: readonly R[], isStricter: (a: R, b: R) => boolean): R | undefined {
  return requirements.reduce<R | undefined>((best, r) => (best === undefined || isStricter(r, best) ? r : best), undefined);
}
