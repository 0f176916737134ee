/**
 * The ZTT signer of a remote authority (docs/ztt.md, "Remote signing"): the SDK's one signer
 * (`zttSignerCertifiedBy`), with its certificates from the service's `POST ztt/certify` and its clock the service's.
 */
import { TemporalError } from "../core/errors.js";
import { toUnixMs } from "../core/phase.js";
import type { Window, ZoneInput } from "../core/types.js";
import type { ZttCertificate } from "../ztt/certificate.js";
import { ZttWindowClosedError, zttSignerCertifiedBy, type ZttCertify, type ZttSigner } from "../ztt/signer.js";
import { TemporalApiError } from "./errors.js";
import { syncClock, type TwatchSource } from "./sync-clock.js";

export interface RemoteZttSignerOptions {
  readonly window: Window;
  readonly zone: ZoneInput;
  /** The signer's clock; default the service's, synced at the first `sign`. */
  readonly clock?: () => number | Date;
}

/** What the signer needs of the client: the certificate endpoint and the clock exchange. */
interface ZttCertifier extends TwatchSource {
  certifyZtt(ephemeralX: string, window: Window, zone: ZoneInput): Promise<ZttCertificate>;
}

/** Exchanges per clock sync, as a mission's decision takes: the smallest round trip wins. */
const CLOCK_SAMPLES = 3;

export function remoteZttSigner(client: ZttCertifier, options: RemoteZttSignerOptions): ZttSigner {
  let offsetMs = 0;
  const clock = options.clock ?? (() => Date.now() + offsetMs);
  const certify: ZttCertify = async (ephemeralX, window, zone, day) => {
    let certificate: ZttCertificate;
    try {
      certificate = await client.certifyZtt(ephemeralX, window, zone);
    } catch (error) {
      // Closed by the service's clock though open by the signer's: the same error a local signer gives, with the service's next opening.
      if (error instanceof TemporalApiError && error.code === "ZTT_WINDOW_CLOSED" && error.nextOpenUnixMs !== undefined) {
        throw new ZttWindowClosedError(toUnixMs(clock()), window, error.nextOpenUnixMs);
      }
      throw error;
    }
    if (certificate.day_index !== day) {
      throw new TemporalError(
        "ZTT_CLOCK_SKEW",
        `the service certified the opening of window [${window[0]}, ${window[1]}] that starts on UTC day ${certificate.day_index}, but the signer's clock is in the one of day ${day}: the clocks disagree (sync the clock, or drop the signer's own clock)`,
      );
    }
    return certificate;
  };
  const signer = zttSignerCertifiedBy({ window: options.window, zone: options.zone, clock }, certify);
  if (options.clock !== undefined) return signer;
  let synced: Promise<void> | undefined;
  const sync = () =>
    syncClock(client, { samples: CLOCK_SAMPLES }).then(
      (result) => {
        offsetMs = result.offset_ms;
      },
      (error: unknown) => {
        synced = undefined; // the next sign tries again
        throw error;
      },
    );
  return {
    async sign(payload) {
      await (synced ??= sync());
      return signer.sign(payload);
    },
    holdsKey: () => signer.holdsKey(),
    close: () => signer.close(),
  };
}
