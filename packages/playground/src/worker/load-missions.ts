import * as sdk from "@temporal/agent-sdk";
import type { Mission } from "@temporal/agent-sdk";
import { SDK_SPECIFIER } from "./protocol.js";

/**
 * The compiled missions as live `Mission` objects bound to the language
 * worker's SDK, which decides and runs them (time-panel-data.ts).
 *
 * The code is run with `new Function`, its one `require` answered with the
 * SDK module the worker already loaded. Rather than `import()` of a Blob or
 * data: URL of an ES module: every distinct URL imported stays in the
 * worker's module map for good, and the panel compiles again on every pause
 * in typing; a function is garbage once replaced. It is also the same path in
 * the worker and in Node's tests.
 */

/** The missions of the worker's compiled code, in file order. */
export function instantiateMissions(code: string): Mission[] {
  const exports = {} as { missions: Record<string, Mission> };
  const require = (specifier: string): unknown => {
    if (specifier === SDK_SPECIFIER) return sdk;
    throw new Error(`generated code required ${JSON.stringify(specifier)}; only ${SDK_SPECIFIER} is available`);
  };
  // The compiler's output, never user-written JavaScript: the mission language has no code in it.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const body = new Function("require", "exports", "module", code) as (require: (specifier: string) => unknown, exports: object, module: { exports: object }) => void;
  body(require, exports, { exports });
  return Object.values(exports.missions);
}
