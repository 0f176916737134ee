import { TemporalRangeError, TemporalTypeError, describeValue } from "../core/errors.js";
import type { TwatchNow } from "../core/service-types.js";
import type { ZoneInput } from "../core/types.js";
import type { TwatchNowQuery } from "./client.js";

export interface SyncClockOptions {
  /** Requests to make, one after another; default 4, at most 64. */
  readonly samples?: number;
  /** The local clock, Unix ms; default `Date.now`. */
  readonly clock?: () => number;
  readonly zone?: ZoneInput;
}

/** One NTP-style exchange: t0 sent and t3 received on the local clock, t1 received and t2 sent on the service's. */
export interface ClockSample {
  readonly t0: number;
  readonly t1: number;
  readonly t2: number;
  readonly t3: number;
  /** ((t1 - t0) + (t2 - t3)) / 2: add it to the local clock to get the service's. */
  readonly offset_ms: number;
  /** (t3 - t0) - (t2 - t1): time on the network, without the service's own processing. */
  readonly round_trip_ms: number;
}

export interface ClockSync {
  /** The offset of the sample with the smallest round trip (the least distorted by network asymmetry). */
  readonly offset_ms: number;
  readonly round_trip_ms: number;
  /** Every sample, in the order taken. */
  readonly samples: readonly ClockSample[];
}

/** Anything with `getTwatchNow`, normally a `TemporalClient`. */
export interface TwatchSource {
  getTwatchNow(options?: TwatchNowQuery): Promise<TwatchNow>;
}

const MAX_SAMPLES = 64;

/** Exchanges per sync of a mission's decision or a remote ZTT signer: the smallest round trip is kept, so a few absorb a slow first request (connection set-up). */
const CLOCK_SAMPLES = 3;

/**
 * Estimates the offset of the local clock from the service's with
 * `GET twatch/now`, NTP-style: `samples` exchanges in sequence, keeping the
 * one with the smallest round trip. The service's time is about
 * `clock() + offset_ms`.
 */
export async function syncClock(client: TwatchSource, options: SyncClockOptions = {}): Promise<ClockSync> {
  const count = options.samples ?? 4;
  if (!Number.isInteger(count) || count < 1 || count > MAX_SAMPLES) {
    throw new TemporalRangeError("INVALID_ARGUMENT", `samples must be an integer 1..${MAX_SAMPLES}, got ${describeValue(count)}`);
  }
  const clock = options.clock ?? Date.now;
  const samples: ClockSample[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = clock();
    const reply = await client.getTwatchNow(options.zone === undefined ? { t0: Math.round(t0) } : { t0: Math.round(t0), zone: options.zone });
    const t3 = clock();
    samples.push(clockSample(t0, serviceTimes(reply), t3));
  }
  let best = samples[0] as ClockSample;
  for (const sample of samples) if (sample.round_trip_ms < best.round_trip_ms) best = sample;
  return { offset_ms: best.offset_ms, round_trip_ms: best.round_trip_ms, samples };
}

function clockSample(t0: number, [t1, t2]: readonly [number, number], t3: number): ClockSample {
  return { t0, t1, t2, t3, offset_ms: (t1 - t0 + (t2 - t3)) / 2, round_trip_ms: t3 - t0 - (t2 - t1) };
}

function serviceTimes(reply: TwatchNow): [number, number] {
  const sync = (reply as { sync?: Partial<TwatchNow["sync"]> } | null)?.sync;
  const t1 = sync?.receive_unix_ms;
  const t2 = sync?.transmit_unix_ms;
  if (typeof t1 !== "number" || typeof t2 !== "number" || !Number.isFinite(t1) || !Number.isFinite(t2)) {
    // A TemporalClient has already rejected such a reply as INVALID_RESPONSE; this guards other sources.
    throw new TemporalTypeError("INVALID_ARGUMENT", `getTwatchNow returned no numeric sync.receive_unix_ms and sync.transmit_unix_ms: ${describeValue(sync)}`);
  }
  return [t1, t2];
}

/**
 * The service's clock: this machine's monotonic clock plus the offset of the last sync (`syncClock`). The offset is
 * against `performance.now()`, so a step of the wall clock after the sync does not move it. Concurrent callers share
 * one sync; a failed sync is retried by the next caller.
 */
export class SyncedClock {
  #serviceMsAtOrigin = 0;
  #syncedAt = Number.NEGATIVE_INFINITY;
  #pending: Promise<void> | undefined;

  readonly #source: TwatchSource;

  constructor(source: TwatchSource) {
    this.#source = source;
  }

  now(): number {
    return this.#serviceMsAtOrigin + performance.now();
  }

  /** Resolves once the last sync is at most `maxAgeMs` old (0: a sync started now). */
  fresh(maxAgeMs: number): Promise<void> {
    if (this.#pending !== undefined) return this.#pending;
    if (performance.now() - this.#syncedAt <= maxAgeMs) return Promise.resolve();
    // The t0 this sends to `GET twatch/now` is a performance.now() reading, not Unix ms as `sync.t0_unix_ms` is named:
    // the service only echoes it back, and the offset is computed from this clock's own t0 and t3.
    const pending = syncClock(this.#source, { samples: CLOCK_SAMPLES, clock: () => performance.now() }).then(({ offset_ms }) => {
      this.#serviceMsAtOrigin = offset_ms;
      this.#syncedAt = performance.now();
    });
    this.#pending = pending;
    const settled = () => {
      if (this.#pending === pending) this.#pending = undefined;
    };
    pending.then(settled, settled);
    return pending;
  }
}
