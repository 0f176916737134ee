// Types for `import missions from "./x.mission"`: add "unplugin-mission/client"
// to compilerOptions.types, or `/// <reference types="unplugin-mission/client" />`.
//
// This file must have no top-level import or export: either would make it a
// module, and TypeScript would then ignore the wildcard declaration without a
// word. Hence the inline import() types.
//
// A wildcard declaration cannot name a file's missions, so named imports
// (`import { nightly_backup } from ...`) need exact types: generate them with
// `temporalc compile --dts`, or use `missions.nightly_backup`.
declare module "*.mission" {
  /** Every mission in the file, by name, in source order. */
  export const missions: Readonly<Record<string, import("@temporal/agent-sdk").Mission>>;
  export default missions;
}
