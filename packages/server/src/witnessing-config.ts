/**
 * The config file's `witnessing` section (docs/witness.md, docs/service.md):
 * the witnesses the clockchain's checkpoints go to, the quorum that makes
 * anchors FINAL, and the rounds' timing (interval, request timeout, the cap
 * of a failing witness's backoff). Its shape is checked with the rest of the
 * file; what the shape cannot say (a vkey's type, a quorum above the
 * witnesses, a name twice) is checked here with the SDK's own rules, before
 * the service starts.
 */

import { TemporalError, checkWitnessingOptions, type WitnessingOptions } from "@temporal/agent-sdk";

export const WITNESSING_CONFIG_SCHEMA = {
  type: ["object", "null"],
  additionalProperties: false,
  required: ["witnesses", "quorum"],
  properties: {
    witnesses: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["url", "vkey"],
        properties: { url: { type: "string", pattern: "^https?://" }, vkey: { type: "string", minLength: 1 } },
      },
    },
    quorum: { type: "integer", minimum: 1 },
    interval_ms: { type: "integer", minimum: 1, maximum: 3_600_000 },
    request_timeout_ms: { type: "integer", minimum: 1, maximum: 3_600_000 },
    backoff_max_ms: { type: "integer", minimum: 1, maximum: 3_600_000 },
  },
} as const;

/** The section as it is in the file, once its shape is valid. */
export interface WitnessingConfig {
  readonly witnesses: readonly { readonly url: string; readonly vkey: string }[];
  readonly quorum: number;
  readonly interval_ms?: number;
  readonly request_timeout_ms?: number;
  /** The SDK's `backoffMaxMs`: the longest a failing witness waits before it is asked again. */
  readonly backoff_max_ms?: number;
}

/** The witnessing options of a valid section (undefined for none or null); the problem in the SDK's words otherwise. */
export function witnessingOptions(section: WitnessingConfig | null | undefined): WitnessingOptions | undefined | { readonly problem: string } {
  if (section === undefined || section === null) return undefined;
  const options: WitnessingOptions = {
    witnesses: section.witnesses,
    quorum: section.quorum,
    intervalMs: section.interval_ms,
    requestTimeoutMs: section.request_timeout_ms,
    backoffMaxMs: section.backoff_max_ms,
  };
  try {
    checkWitnessingOptions(options);
  } catch (error) {
    if (error instanceof TemporalError) return { problem: `${error.message} (${error.code})` };
    throw error;
  }
  return options;
}
