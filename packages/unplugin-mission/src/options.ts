import type { FilterPattern } from "unplugin";

export interface Options {
  /**
   * Which module ids to compile. Default `/\.mission$/`. Only file paths are
   * compiled: ids with a query (`?raw`) and virtual modules (`\0virtual:x.mission`)
   * are left to other plugins whatever this matches.
   */
  include?: FilterPattern;
  /** Module ids never to compile, even when `include` matches. */
  exclude?: FilterPattern;
  /** The generated module's format: `esm` (default) or `cjs`. */
  format?: "esm" | "cjs";
  /** Return a source map from the generated module to the `.mission` file. Default true. */
  sourceMap?: boolean;
  /** The module the generated code imports the runtime from. Default `@temporal/agent-sdk`. */
  sdkModule?: string;
  /** Fail the build on warnings too, not only on errors. Default false. */
  strict?: boolean;
  /**
   * Write `x.d.mission.ts` (`x.d.msn.ts` for an `x.msn`) next to each compiled
   * mission inside the project root and not under node_modules: its exact
   * types (every mission by name, with its task names), picked up by
   * TypeScript with `allowArbitraryExtensions`. A failed write is a warning.
   * Default false.
   */
  dts?: boolean;
}

export interface ResolvedOptions {
  include: FilterPattern;
  exclude: FilterPattern;
  format: "esm" | "cjs";
  sourceMap: boolean;
  sdkModule: string | undefined;
  strict: boolean;
  dts: boolean;
}

const DEFAULT_INCLUDE = /\.mission$/;

/**
 * Fills in defaults and rejects wrong types when the bundler config is read,
 * so a typo fails at startup instead of on the first mission file.
 */
export function resolveOptions(options: Options = {}): ResolvedOptions {
  const { include = DEFAULT_INCLUDE, exclude = [], format = "esm", sourceMap = true, sdkModule, strict = false, dts = false } = options;
  if (format !== "esm" && format !== "cjs") throw new TypeError(`unplugin-mission: options.format must be "esm" or "cjs", got ${JSON.stringify(format)}`);
  if (typeof sourceMap !== "boolean") throw new TypeError("unplugin-mission: options.sourceMap must be a boolean");
  if (typeof strict !== "boolean") throw new TypeError("unplugin-mission: options.strict must be a boolean");
  if (typeof dts !== "boolean") throw new TypeError("unplugin-mission: options.dts must be a boolean");
  if (sdkModule !== undefined && (typeof sdkModule !== "string" || sdkModule === "")) {
    throw new TypeError("unplugin-mission: options.sdkModule must be a non-empty string");
  }
  return { include, exclude, format, sourceMap, sdkModule, strict, dts };
}
