/**
 * The service's ZTT window (docs/service.md, docs/ztt.md): the config file's `ztt` section and the
 * `--ztt-window`/`--ztt-zone` flags, which override it (read by the SDK's `parseWindowText`/`parseZoneText`, as
 * `temporalc verify --window/--zone`). Read at start only: the signer's ephemeral key belongs to
 * one opening of one window, so a reload that changes it says it takes effect at the next start.
 */
import type { Window, ZoneInput } from "@temporal/agent-sdk";
import type { ServiceConfig, ZttConfig } from "@temporal/agent-sdk/service";
import { UsageError } from "./exit-status.js";

const degrees = { type: "number", minimum: 0, maximum: 360 } as const;

export const ZTT_CONFIG_SCHEMA = {
  type: ["object", "null"],
  additionalProperties: false,
  required: ["window"],
  properties: {
    window: { type: "array", prefixItems: [degrees, degrees], items: false, minItems: 2 },
    zone: {
      anyOf: [
        { type: "integer", minimum: 0, maximum: 11 },
        { type: "string", pattern: "^Z(?:[0-9]|1[01])$" },
      ],
    },
  },
} as const;

/** The section as it is in the file, once its shape is valid. */
export interface ZttSection {
  readonly window: Window;
  readonly zone?: ZoneInput;
}

/** `zone` defaults to Z0 (UTC), as everywhere in the API. */
export function zttConfig(section: ZttSection | null | undefined): ZttConfig | null {
  return section === undefined || section === null ? null : { window: section.window, zone: section.zone ?? 0 };
}

export interface ZttFlags {
  readonly zttWindow?: Window;
  readonly zttZone?: ZoneInput;
}

/** The config with the flags applied: `--ztt-window` sets the window, `--ztt-zone` the zone (of the flag's window or the file's). */
export function withZttFlags(config: ServiceConfig, flags: ZttFlags): ServiceConfig {
  if (flags.zttWindow === undefined && flags.zttZone === undefined) return config;
  const window = flags.zttWindow ?? config.ztt?.window;
  if (window === undefined) throw new UsageError('--ztt-zone needs a window: give --ztt-window too, or "ztt": { "window": [a, b] } in the config file');
  return { ...config, ztt: { window, zone: flags.zttZone ?? config.ztt?.zone ?? 0 } };
}
