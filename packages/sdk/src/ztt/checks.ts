/** The named checks `verifyZtt` reports. */

export type ZttCheckName =
  "certificate_signature" | "certificate_interval" | "ephemeral_signature" | "signing_context" | "payload_sha256" | "anchor_receipt" | "anchor_inclusion" | "witnessed_time";

export interface ZttCheck {
  readonly name: ZttCheckName;
  readonly ok: boolean;
  /** Why the check failed; absent when it passed. */
  readonly reason?: string;
}

export function check(name: ZttCheckName, ok: boolean, reason: string): ZttCheck {
  return ok ? { name, ok } : { name, ok, reason };
}

/** `run`'s check, or a failed one naming what went wrong when arbitrary JSON made it throw: a bad bundle never throws. */
export async function guarded(name: ZttCheckName, run: () => ZttCheck | Promise<ZttCheck>): Promise<ZttCheck> {
  try {
    return await run();
  } catch (error) {
    return check(name, false, error instanceof Error ? error.message : String(error));
  }
}
