import { now } from "../core/phase.js";
import type { Authority, PhaseContext } from "../core/types.js";
import { SyncedClock, type TwatchSource } from "../remote/sync-clock.js";
import { defaultSdk } from "#default-sdk";
import { AuthorityUnavailableError, MissionAbortedError } from "./errors.js";
import { receiptRequest } from "./receipt-request.js";
import { settle } from "./settle.js";
import type { Decision, EvaluateOptions, MissionSpec } from "./types.js";
import { missionContext } from "./zone.js";

/** How a mission reaches its authority during one `evaluate` or `run`. */
export interface AuthorityAccess {
  /** `options.sdk`, else `defaultSdk()`, made on first use (it does no I/O). */
  readonly get: () => Authority;
  readonly signal: AbortSignal | undefined;
  /** The error to reject with when the signal aborts. */
  readonly onAbort: () => unknown;
  /**
   * The service's clock as the decision synced it (`decisionContext`), for a ZTT signer to sign by, so signing agrees
   * with the verdict. It follows `performance.now()` from that one sync (`SyncedClock`): monotonic, so a step of this
   * machine's wall clock does not move it, but it does not advance while the machine sleeps, and it never resyncs
   * during the run. That is fine: the service certifies a key only for a window and day open by its own clock.
   */
  readonly serviceClock: { now?: () => number };
}

/** Until the run has a decision, an abort is reported with no verdict and nothing done (`runBlock` then passes its own `onAbort`). */
export function authorityAccess(spec: MissionSpec, options: EvaluateOptions): AuthorityAccess {
  const onAbort = () => new MissionAbortedError(spec.name, null, options.signal?.reason);
  let authority = options.sdk;
  const get = () => {
    try {
      authority ??= defaultSdk();
    } catch (cause) {
      // An unusable TEMPORAL_URL or TEMPORAL_API_KEY.
      throw new AuthorityUnavailableError(spec.name, "its authority is misconfigured", cause);
    }
    return authority;
  };
  return { get, signal: options.signal, onAbort, serviceClock: {} };
}

/**
 * The context the verdict is decided on, in the mission's zone. An explicit
 * `clock` wins (a simulation, `source: "local"`). Otherwise a remote
 * authority tells the time (`source: "remote"`) unless `localClock` is set:
 * a client of the service is synced with `syncClock` (NTP-style over
 * `GET twatch/now`, which corrects for the network's round trip), any other
 * remote authority is asked for its `now()`; either way the runtime derives
 * the context from the service's instant alone, so a malformed reply cannot
 * skew the check. The local clock is used otherwise.
 */
export async function decisionContext(spec: MissionSpec, options: EvaluateOptions, access: AuthorityAccess): Promise<PhaseContext> {
  if (options.clock !== undefined || options.localClock === true) return localContext(spec, options);
  const authority = access.get();
  if (authority.kind !== "remote") return localContext(spec, options);
  try {
    const unixMs = await settle(serviceTime(authority, access.serviceClock), access);
    return missionContext(spec.zone, unixMs as number, "remote");
  } catch (cause) {
    if (cause instanceof MissionAbortedError) throw cause;
    throw new AuthorityUnavailableError(spec.name, "the service could not tell the time (localClock: true, or temporalc run --local-clock, reads this machine's clock instead)", cause);
  }
}

/** The service's time now, in Unix ms; a client of the service is synced, and the synced clock kept in `serviceClock`. */
async function serviceTime(authority: Authority, serviceClock: AuthorityAccess["serviceClock"]): Promise<number> {
  if (isTwatchSource(authority)) {
    const synced = new SyncedClock(authority);
    await synced.fresh(0);
    serviceClock.now = () => Math.round(synced.now());
    return serviceClock.now();
  }
  return (await authority.now()).unix_ms;
}

function isTwatchSource(authority: Authority): authority is Authority & TwatchSource {
  return typeof (authority as Partial<TwatchSource>).getTwatchNow === "function";
}

/** `now()` reads (and checks) the clock; the mission's zone, SWT or IANA, makes the context. */
async function localContext(spec: MissionSpec, options: EvaluateOptions): Promise<PhaseContext> {
  const { unix_ms } = await now(options.clock === undefined ? {} : { clock: options.clock });
  return missionContext(spec.zone, unix_ms, "local");
}

/**
 * Before the first task of a block that anchors: the receipt must be able
 * to record the decision's time, and the authority must be ready to issue
 * and anchor it, with as many witness cosignatures as its anchor steps ask
 * for. Otherwise the tasks would run and no receipt say so.
 */
export async function assertCanAnchor(spec: MissionSpec, decision: Decision, access: AuthorityAccess, quorum: number | undefined): Promise<void> {
  try {
    receiptRequest(spec, decision, []);
  } catch (cause) {
    throw new AuthorityUnavailableError(spec.name, `a receipt cannot record its time, ${decision.ctx.utc}`, cause);
  }
  const authority = access.get();
  try {
    await settle(authority.ready(), access);
  } catch (cause) {
    if (cause instanceof MissionAbortedError) throw cause;
    throw new AuthorityUnavailableError(spec.name, `its ${authority.kind} authority cannot issue and anchor receipts`, cause);
  }
  try {
    if (quorum !== undefined) authority.assertQuorum?.(quorum);
  } catch (cause) {
    throw new AuthorityUnavailableError(spec.name, "its anchor step asks for more witness cosignatures than its authority can give", cause);
  }
}
