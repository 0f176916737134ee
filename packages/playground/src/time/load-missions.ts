import * as sdk from "@temporal/agent-sdk";
import type { Mission } from "@temporal/agent-sdk";
import { compile, type Diagnostic, type MissionModel } from "@temporal/compiler";

/**
 * From the editor's source to live `Mission` objects bound to the page's own
 * SDK, in two steps: `compileForPage` (pure, plain data out: it runs in the
 * panel's compile worker, and in Node's tests) and `instantiateMissions`
 * (in the page, where the SDK that decides and runs is).
 *
 * The code is compiled as CommonJS and run with `new Function`, its one
 * `require` answered with the SDK module this page already loaded. Rather
 * than `import()` of a Blob or data: URL of an ES module: every distinct URL
 * imported stays in the page's module map for good, and the panel compiles
 * again on every pause in typing; a function is garbage once replaced. It is
 * also the same path in the page and in Node's tests.
 */

/** The specifier generated code requires the runtime by (any fixed name; only this loader answers it). */
const SDK_SPECIFIER = "@temporal/agent-sdk";

/** What the compile worker sends back: structured-clonable (the model is plain data). */
export type CompiledForPage =
  { readonly ok: true; readonly code: string; readonly model: MissionModel } | { readonly ok: false; readonly errors: readonly Diagnostic[]; readonly model: MissionModel };

export function compileForPage(source: string, filename: string): CompiledForPage {
  const result = compile(source, { filename, format: "cjs", sdkModule: SDK_SPECIFIER });
  if (result.code === undefined) return { ok: false, errors: result.diagnostics.filter((d) => d.severity === "error"), model: result.model };
  return { ok: true, code: result.code, model: result.model };
}

/** The missions of `compileForPage`'s code, in file order. */
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
