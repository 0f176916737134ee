import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeShareFragment, encodeShareFragment, ShareLinkError, type SharedPlayground } from "../src/share.js";
import type { PlaygroundSettings } from "../src/state.js";

// JSON has no -0 (it reads back as 0), and no setting means anything different for either.
const noMinusZero = (x: number): number => (Object.is(x, -0) ? 0 : x);
const carbon = fc.oneof(fc.constant(null), fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }).map(noMinusZero));
const hsBloch = fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1, noNaN: true }).map(noMinusZero));
const shared: fc.Arbitrary<SharedPlayground> = fc.record({
  source: fc.string({ unit: "grapheme", maxLength: 400 }),
  settings: fc.record({ at: fc.oneof(fc.constant(null), fc.integer({ min: -8.64e15, max: 8.64e15 })), carbon, hsBloch }),
});

async function codeOf(fragment: string): Promise<string> {
  try {
    await decodeShareFragment(fragment);
  } catch (error) {
    if (error instanceof ShareLinkError) return error.code;
    throw error;
  }
  return "decoded";
}

describe("share links", () => {
  it("round-trip any source and settings exactly, as a versioned URL-safe fragment", async () => {
    await fc.assert(
      fc.asyncProperty(shared, async (playground) => {
        const fragment = await encodeShareFragment(playground);
        expect(fragment).toMatch(/^#v1\.[A-Za-z0-9_-]*$/);
        expect(await decodeShareFragment(fragment)).toEqual(playground);
      }),
      { numRuns: 200 },
    );
  });

  it("compress a typical mission", async () => {
    const source = "@temporal v4.6.2\n@anchor Z1\n\nmission m {\n  require phase [300, 30]\n  on ALLOW {\n    execute a\n  }\n}\n".repeat(4);
    const fragment = await encodeShareFragment({ source, settings: { at: null, carbon: null, hsBloch: null } });
    expect(fragment.length).toBeLessThan(source.length * 0.6);
  });

  it("refuse a fragment from an unknown format version, naming it", async () => {
    await expect(decodeShareFragment("#v9.AAAA")).rejects.toMatchObject({ code: "SHARE_LINK_UNKNOWN_VERSION", message: expect.stringContaining("(v9)") });
    expect(await codeOf("#hello")).toBe("SHARE_LINK_UNKNOWN_VERSION");
  });

  it("report a damaged link as SHARE_LINK_CORRUPT, never another error", async () => {
    const good = await encodeShareFragment({ source: "mission m {}", settings: { at: 1, carbon: null, hsBloch: null } });
    expect(await codeOf(good.slice(0, good.length - 6))).toBe("SHARE_LINK_CORRUPT");
    expect(await codeOf("#v1.!!!")).toBe("SHARE_LINK_CORRUPT");
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") }), async (garbage) => {
        expect(["SHARE_LINK_CORRUPT", "decoded"]).toContain(await codeOf(`#v1.${garbage}`));
      }),
      { numRuns: 200 },
    );
  });

  it("refuse settings the time panel cannot show: an instant no Date holds, a negative carbon, an HS-Bloch outside [0, 1]", async () => {
    const linkWith = (settings: Partial<PlaygroundSettings>) => encodeShareFragment({ source: "", settings: { at: null, carbon: null, hsBloch: null, ...settings } });
    for (const bad of <Partial<PlaygroundSettings>[]>[{ at: 1e300 }, { at: 8.64e15 + 1 }, { at: -8.64e15 - 1 }, { at: 1.5 }, { carbon: -1 }, { hsBloch: 1.01 }, { hsBloch: -0.5 }]) {
      await expect(decodeShareFragment(await linkWith(bad)), JSON.stringify(bad)).rejects.toMatchObject({
        code: "SHARE_LINK_CORRUPT",
        message: expect.stringContaining(Object.keys(bad)[0]!),
      });
    }
    for (const good of <Partial<PlaygroundSettings>[]>[{ at: 8.64e15 }, { at: -8.64e15 }, { carbon: 0 }, { hsBloch: 0 }, { hsBloch: 1 }]) {
      expect((await decodeShareFragment(await linkWith(good))).settings).toMatchObject(good);
    }
  });

  it("refuse a link that decompresses to more than 1 MiB", async () => {
    const huge = await encodeShareFragment({ source: "a".repeat(2 << 20), settings: { at: null, carbon: null, hsBloch: null } });
    expect(await codeOf(huge)).toBe("SHARE_LINK_TOO_LARGE");
  });
});
