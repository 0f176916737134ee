import explanations from "virtual:diagnostic-explanations";
import { DIAGNOSTIC_CODES } from "@temporal/compiler";
import { EXIT_OK, UsageError } from "../errors.js";

/** The codes whose explanation differs from `wanted` by one edit, or that share its range (M3xx for M399). */
function suggestions(wanted: string): string[] {
  const codes = Object.keys(DIAGNOSTIC_CODES);
  const near = codes.filter((code) => code.length === wanted.length && [...code].filter((ch, i) => ch !== wanted[i]).length === 1);
  const sameRange = codes.filter((code) => code.slice(0, 2) === wanted.slice(0, 2));
  return [...new Set([...near, ...sameRange])].slice(0, 8);
}

/** Prints docs/diagnostics.md's section for one code: what it means, why it matters, how to fix it, an example. */
export function runExplain(code: string): number {
  const wanted = code.trim().toUpperCase();
  const explanation = Object.hasOwn(explanations, wanted) ? explanations[wanted] : undefined;
  if (explanation === undefined) {
    const near = suggestions(wanted);
    const codes = Object.keys(DIAGNOSTIC_CODES);
    const hint = near.length > 0 ? `; did you mean ${near.join(", ")}?` : `; codes are ${codes[0]} to ${codes.at(-1)}, listed in docs/diagnostics.md`;
    throw new UsageError("UNKNOWN_CODE", `unknown diagnostic code ${JSON.stringify(code)}${hint}`);
  }
  process.stdout.write(`${wanted}: ${explanation.title} (${explanation.severity})\n\n${explanation.text}\n`);
  return EXIT_OK;
}
