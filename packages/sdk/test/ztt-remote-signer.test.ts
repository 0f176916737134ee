/**
 * The signer when its certificates take time or come from elsewhere (docs/ztt.md, "Remote signing"): the signing
 * context is the time of signing, a late failure drops only its own attempt, and the remote signer's clock sync. The
 * certificates are a real memory authority's; only the transport to it is replaced, to count and delay requests. The
 * endpoint itself is tested against the real service in packages/server/test/client.test.ts.
 */
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { createMemoryAuthority } from "../src/authority/index.js";
import type { TwatchNow } from "../src/core/service-types.js";
import { TICKS_PER_DAY } from "../src/core/units.js";
import { remoteZttSigner } from "../src/remote/ztt-signer.js";
import type { ZttCertificate } from "../src/ztt/certificate.js";
import { verifyZtt } from "../src/ztt/index.js";
import { zttSignerCertifiedBy } from "../src/ztt/signer.js";

const day = 20_000;
const at = (hours: number) => day * TICKS_PER_DAY + hours * 3_600_000;

/** A promise and the functions that settle it, for a certificate that arrives when the test says. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
}

describe("a signer whose certificate arrives late", () => {
  // [90, 120] in Z1 is open from 04:00 to 06:00 UTC.
  it("signs with the context of the moment it signs, and refuses once the opening closed while it waited", async () => {
    let now = at(5);
    const authority = createMemoryAuthority({ clock: () => now });
    let arrives = deferred<void>();
    const signer = zttSignerCertifiedBy({ window: [90, 120], zone: 1, clock: () => now }, async (ephemeral_x, window, zone) => {
      const certificate = await authority.certifyZttKey({ ephemeral_x, window, zone });
      await arrives.promise;
      return certificate;
    });
    const signed = signer.sign("late but open");
    now = at(5.5);
    arrives.resolve();
    expect((await signed).context.unix_ms).toBe(at(5.5));

    signer.close();
    now = at(5.9);
    arrives = deferred<void>();
    const refused = signer.sign("late and closed");
    now = at(6) + 1;
    arrives.resolve();
    await expect(refused).rejects.toMatchObject({ code: "ZTT_WINDOW_CLOSED", next_open_unix_ms: at(28) });
    await authority.close();
  });

  it("a failure of one opening's certificate does not drop the next opening's key", async () => {
    let now = at(5);
    const authority = createMemoryAuthority({ clock: () => now });
    const first = deferred<ZttCertificate>();
    // Keyed on the opening's day, not on the order of calls: each sign makes its key first (the thread pool's work),
    // so the second sign can reach certify before the first.
    const signer = zttSignerCertifiedBy({ window: [90, 120], zone: 1, clock: () => now }, (ephemeral_x, window, zone, openingDay) =>
      openingDay === day ? first.promise : authority.certifyZttKey({ ephemeral_x, window, zone }),
    );
    const stale = signer.sign("yesterday's opening");
    now = at(29); // the next day's opening
    await signer.sign("today's opening");
    first.reject(new Error("the service was unreachable"));
    await expect(stale).rejects.toThrow("unreachable");
    expect(signer.holdsKey()).toBe(true);
    signer.close();
    await authority.close();
  });
});

/** The client a remote signer talks to, in front of a memory authority on the service's clock; counts requests and can fail the clock exchange. */
function service(serviceNow: () => number) {
  const authority = createMemoryAuthority({ clock: serviceNow });
  const counts = { twatch: 0, certify: 0 };
  let unreachable = false;
  const client = {
    async getTwatchNow(): Promise<TwatchNow> {
      counts.twatch++;
      if (unreachable) throw new Error("connect ECONNREFUSED 127.0.0.1");
      const t = serviceNow();
      return { sync: { t0_unix_ms: null, receive_unix_ms: t, transmit_unix_ms: t } } as unknown as TwatchNow;
    },
    certifyZtt(ephemeral_x: string, window: [number, number], zone: number | string) {
      counts.certify++;
      return authority.certifyZttKey({ ephemeral_x, window, zone: Number(String(zone).replace("Z", "")) });
    },
  };
  return { authority, client, counts, setUnreachable: (value: boolean) => void (unreachable = value) };
}

describe("the remote signer", () => {
  it("three concurrent first signatures share one clock sync and one certificate", async () => {
    const { authority, client, counts } = service(() => at(5));
    // The monotonic clock stands still unless the test moves it, so "under a second old" holds on a loaded machine too.
    const start = performance.now();
    let elapsed = 0;
    const monotonic = vi.spyOn(performance, "now").mockImplementation(() => start + elapsed);
    onTestFinished(() => monotonic.mockRestore());
    const signer = remoteZttSigner(client, { window: [90, 120], zone: 1 });
    const bundles = await Promise.all([signer.sign("a"), signer.sign("b"), signer.sign("c")]);
    expect(counts).toEqual({ twatch: 3, certify: 1 });
    expect(new Set(bundles.map((bundle) => bundle.key_id)).size).toBe(1);
    // While the key is held, no new sync; once it is dropped (a new opening), the clock is synced again first,
    // unless the last sync is under a second old.
    await signer.sign("d");
    expect(counts).toEqual({ twatch: 3, certify: 1 });
    signer.close();
    await signer.sign("e");
    expect(counts).toEqual({ twatch: 3, certify: 2 });
    signer.close();
    elapsed = 1_500;
    await signer.sign("f");
    expect(counts).toEqual({ twatch: 6, certify: 3 });
    signer.close();
    await authority.close();
  });

  it("with anchor, comes back anchored; a verifier can require the anchor and name the window and zone", async () => {
    const { authority, client } = service(() => at(5));
    const signer = remoteZttSigner(client, { window: [90, 120], zone: 1, anchor: { authority } });
    const bundle = await signer.sign("anchored");
    const keys = Object.values(await authority.publicKeys());
    expect(await verifyZtt(bundle, keys, { requireAnchor: true, window: [90, 120], zone: "Z1" })).toMatchObject({ valid: true });
    const otherWindow = await verifyZtt(bundle, keys, { window: [0, 360] });
    expect(otherWindow.checks.find((c) => c.name === "certificate_interval")).toMatchObject({ ok: false, reason: expect.stringContaining("not the expected [0, 360]") });
    expect((await verifyZtt(bundle, keys, { zone: 2 })).valid).toBe(false);
    await expect(verifyZtt(bundle, keys, { zone: 12 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    signer.close();
    await authority.close();
  });

  it("rejects a signature when the service cannot be reached for the clock sync, and the next one syncs again", async () => {
    const { authority, client, counts, setUnreachable } = service(() => at(5));
    const signer = remoteZttSigner(client, { window: [90, 120], zone: 1 });
    setUnreachable(true);
    await expect(signer.sign("a")).rejects.toThrow("ECONNREFUSED");
    expect(counts.certify).toBe(0);
    setUnreachable(false);
    await expect(signer.sign("b")).resolves.toMatchObject({ certificate: { day_index: day } });
    expect(counts.certify).toBe(1);
    signer.close();
    await authority.close();
  });

  it("an opening that started the UTC day before carries that day's index: [300, 60] in Z0 at 01:00Z", async () => {
    const { authority, client } = service(() => at(1));
    const signer = remoteZttSigner(client, { window: [300, 60], zone: 0 });
    const bundle = await signer.sign("after midnight");
    expect(bundle.certificate).toMatchObject({ day_index: day - 1, window_deg: [300, 60] });
    signer.close();
    await authority.close();
  });
});
