import { checkReceiptAndProof } from "@temporal/agent-sdk";
import type { AnchorProof, Authority, Mission, PhaseContext, PublicKeyJwk, Receipt, ReceiptCheck, RunResult, Task } from "@temporal/agent-sdk";

/**
 * "Run": every mission of the file runs in order, as `temporalc run` does,
 * against the language worker's in-memory authority, with stand-in tasks that only say they
 * ran. Each receipt it issued and anchored is then verified with the SDK's
 * platform-free checks (WebCrypto), the same three `temporalc verify`
 * reports for a receipt and its proof.
 */

export interface VerifiedReceipt {
  readonly receipt: Receipt;
  readonly proof: AnchorProof | undefined;
  readonly checks: readonly ReceiptCheck[];
  readonly valid: boolean;
}

export type MissionRun =
  | { readonly mission: string; readonly ok: true; readonly result: RunResult; readonly verified: readonly VerifiedReceipt[] }
  | { readonly mission: string; readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

export interface RunInput {
  readonly missions: readonly Mission[];
  /** The time panel's settings, its instant always given (live mode pins it when Run is clicked). */
  readonly settings: { readonly at: number; readonly carbon: number | null; readonly hsBloch: number | null };
  readonly authority: Authority;
  /** Where the stand-in tasks write their one line each. */
  readonly log: (line: string) => void;
}

/** Each mission's run, and the authority's public keys its receipts were verified with (the page shows them). */
export interface RunOutput {
  readonly runs: MissionRun[];
  readonly publicKeys: Record<string, PublicKeyJwk>;
}

/**
 * Runs the missions at the settings' instant (`--at` semantics: tasks run, receipts record it) with the settings'
 * measures. In live mode the instant is the click's, pinned: every mission of one run is decided at the same instant.
 * The authority's keys are asked for once per run: the same keys verify the receipts and go to the page.
 */
export async function runMissions({ missions, settings, authority, log }: RunInput): Promise<RunOutput> {
  const options = {
    sdk: authority,
    clock: () => settings.at,
    carbon: settings.carbon ?? undefined,
    hsBloch: settings.hsBloch ?? undefined,
  };
  const publicKeys = await authority.publicKeys();
  const runs: MissionRun[] = [];
  for (const mission of missions) {
    try {
      const result = await mission.run({ ...options, tasks: standInTasks(mission, log) });
      runs.push({ mission: mission.name, ok: true, result, verified: await Promise.all(result.receipts.map((receipt, i) => verifyAnchored(receipt, result.anchors[i], publicKeys))) });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      runs.push({ mission: mission.name, ok: false, error: { code: typeof code === "string" ? code : "RUN_FAILED", message: error instanceof Error ? error.message : String(error) } });
    }
  }
  return { runs, publicKeys };
}

/** A harmless stand-in for every task the mission can execute, in either block. */
function standInTasks(mission: Mission, log: (line: string) => void): Record<string, Task> {
  const names = new Set([...mission.on.ALLOW, ...mission.on.DENY].flatMap((step) => ("execute" in step ? [step.execute] : [])));
  // A null prototype, so a task named like an Object.prototype member is an own property like any other.
  const tasks: Record<string, Task> = Object.create(null) as Record<string, Task>;
  for (const name of names) tasks[name] = (ctx: PhaseContext) => log(`${mission.name}: ${name} ran (stand-in) at phase ${ctx.phase_deg.toFixed(2)}° in zone Z${ctx.swt_zone}`);
  return tasks;
}

/** The receipt's signature, its proof's inclusion under the checkpoint, and the checkpoint's signature, with the authority's public keys. */
export async function verifyAnchored(receipt: Receipt, proof: AnchorProof | undefined, keys: Readonly<Record<string, PublicKeyJwk>>): Promise<VerifiedReceipt> {
  const checks = await checkReceiptAndProof(receipt, proof, keys, "the authority's keys");
  return { receipt, proof, checks, valid: checks.every((c) => c.ok) };
}
