/**
 * The ZTT signer of a remote authority (docs/ztt.md, "Remote signing"): the SDK's one signer
 * (`zttSignerCertifiedBy`), with its certificates from the service's `POST ztt/certify` and its clock the service's.
 */
import { toUnixMs } from "../core/phase.js";
import type { Window, ZoneInput } from "../core/types.js";
import type { ZttCertificate } from "../ztt/certificate.js";
import { ZttClockSkewError, closedByServiceAt, zttSignerCertifiedBy, type ZttAnchorTarget, type ZttCertify, type ZttSigner } from "../ztt/signer.js";
import { TemporalApiError } from "./errors.js";
import { SyncedClock, type TwatchSource } from "./sync-clock.js";

export interface RemoteZttSignerOptions {
  readonly window: Window;
  readonly zone: ZoneInput;
  /** The signer's clock; default the service's, synced before the first `sign` of each opening and every few minutes. */
  readonly clock?: () => number | Date;
  /** Anchor every bundle before `sign` returns it, as `createZttSigner`'s option does: the log's time then bounds when it was signed. */
  readonly anchor?: ZttAnchorTarget;
}

/** What the signer needs of the client: the certificate endpoint and the clock exchange. */
interface ZttCertifier extends TwatchSource {
  certifyZtt(ephemeralX: string, window: Window, zone: ZoneInput): Promise<ZttCertificate>;
}

/** A sync older than this is redone before the next `sign`: clocks drift, and a long-lived signer must not sign by an old offset. */
const RESYNC_AFTER_MS = 5 * 60_000;
/** A new opening's sync may be this old: the signs of one burst (a mission's steps at the opening) share one sync rather than each paying its own. */
const OPENING_SYNC_MAX_AGE_MS = 1_000;

export function remoteZttSigner(client: ZttCertifier, options: RemoteZttSignerOptions): ZttSigner {
  const synced = options.clock === undefined ? new SyncedClock(client) : undefined;
  const clock = options.clock ?? (() => (synced as SyncedClock).now());
  const certify: ZttCertify = async (ephemeralX, window, zone, day) => {
    let certificate: ZttCertificate;
    try {
      certificate = await client.certifyZtt(ephemeralX, window, zone);
    } catch (error) {
      // Closed by the service's clock though open by the signer's: the same error a local signer gives, with the service's next opening.
      if (error instanceof TemporalApiError && error.code === "ZTT_WINDOW_CLOSED" && error.nextOpenUnixMs !== undefined) {
        throw closedByServiceAt(toUnixMs(clock()), window, error.nextOpenUnixMs);
      }
      throw error;
    }
    if (certificate.day_index !== day) throw new ZttClockSkewError(window, certificate.day_index, day);
    return certificate;
  };
  const signer = zttSignerCertifiedBy({ window: options.window, zone: options.zone, clock, ...(options.anchor === undefined ? {} : { anchor: options.anchor }) }, certify);
  if (synced === undefined) return signer;
  return {
    async sign(payload) {
      // A new opening (no key held) starts from a fresh offset (at most a second old), as does a sync gone stale.
      await synced.fresh(signer.holdsKey() ? RESYNC_AFTER_MS : OPENING_SYNC_MAX_AGE_MS);
      return signer.sign(payload);
    },
    holdsKey: () => signer.holdsKey(),
    close: () => signer.close(),
  };
}
