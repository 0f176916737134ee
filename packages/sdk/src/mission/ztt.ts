import { canonicalJson } from "../core/canonical-json.js";
import type { Authority, Receipt, Window } from "../core/types.js";
import type { ZttBundle, ZttSigner } from "../ztt/signer.js";
import { AuthorityUnavailableError } from "./errors.js";
import type { EvaluateOptions, MissionSpec, MissionStep } from "./types.js";

/**
 * `anchor TSAE -> clockchain signed ZTT`: the receipt is also signed by an
 * ephemeral key that the authority certified for the mission's phase window
 * only (docs/ztt.md). The signed payload is the receipt's canonical JSON, so
 * the bundle's `payload_sha256` is the receipt's hash, the leaf it is
 * anchored as.
 */

/**
 * An authority that can certify ZTT keys: with its own key (a local or memory authority, `ComposedAuthority`), or
 * over HTTP (the service's client, `TemporalClient`, whose signer keeps the key here and asks `POST ztt/certify`).
 */
interface ZttAuthority {
  zttSigner(options: { readonly window: Window; readonly zone: number; readonly clock?: () => number | Date }): ZttSigner;
}

function isZttAuthority(authority: Authority): authority is Authority & ZttAuthority {
  return typeof (authority as Partial<ZttAuthority>).zttSigner === "function";
}

/** Whether a mission step anchors its receipt `signed ZTT` (compiled from `anchor TSAE -> clockchain signed ZTT`). */
export function signsZtt(step: MissionStep): boolean {
  return "anchor" in step && step.signed === "ZTT";
}

/**
 * Before the first task of a block that ZTT-signs: the mission has one
 * window in an SWT zone (the compiler's M510 ensures it for compiled
 * missions) and its authority can certify keys. The signer is made here, so
 * a failure runs nothing; it holds no key until the first signature.
 */
export function zttSignerFor(spec: MissionSpec, authority: Authority, options: EvaluateOptions, serviceClock: (() => number) | undefined): ZttSigner {
  const [window, ...more] = spec.requires.phase;
  if (window === undefined || more.length > 0 || typeof spec.zone !== "number") {
    throw new AuthorityUnavailableError(
      spec.name,
      "its receipts are ZTT-signed, which needs exactly one phase window in an SWT zone",
      new Error(`the mission has ${spec.requires.phase.length} phase windows in zone ${JSON.stringify(spec.zone)}`),
    );
  }
  if (!isZttAuthority(authority)) {
    throw new AuthorityUnavailableError(
      spec.name,
      `its receipts are ZTT-signed, and its ${authority.kind} authority cannot certify ZTT keys (a local, memory or remote authority can)`,
      new Error("the authority has no zttSigner()"),
    );
  }
  if (authority.kind === "remote" && options.clock !== undefined) {
    // Checked here rather than at the first signature, so no task runs for a receipt that cannot be signed.
    throw new AuthorityUnavailableError(
      spec.name,
      "its receipts are ZTT-signed, and the service certifies a key only for an opening that is open now by its own clock, not by this run's simulated one (drop --at / clock, or use a local authority)",
      new Error("a simulated clock with a remote authority"),
    );
  }
  // The signer reads the clock the decision was made by: a simulated one, this machine's (localClock), the service's as the decision synced it, else its own sync.
  const clock = options.clock ?? (options.localClock === true ? Date.now : serviceClock);
  return authority.zttSigner({ window, zone: spec.zone, ...(clock === undefined ? {} : { clock }) });
}

export function zttSign(signer: ZttSigner, receipt: Receipt): Promise<ZttBundle> {
  return signer.sign(canonicalJson(receipt));
}
