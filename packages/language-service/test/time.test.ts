import { describe, expect, it } from "vitest";
import { createLanguageService } from "../src/index.js";
import { documentOf, NOW } from "./helpers.js";

// NOW is 19:25 UTC, so 21:25 in Z1.
const service = createLanguageService({ now: () => NOW, viewerTimeZone: "UTC" });

async function lensTitles(text: string): Promise<string[]> {
  return (await service.codeLenses(documentOf(text))).map((lens) => lens.command?.title ?? "");
}

describe("code lenses", () => {
  it("say ALLOW now, or DENY with the next opening in the file's zone and how long until then", async () => {
    const text =
      "@anchor Z1\nmission open { require phase [300, 30] on ALLOW { execute a } }\nmission later { require phase [330, 340] on ALLOW { execute a } }\nmission always { on ALLOW { execute a } }\n";
    expect(await lensTitles(text)).toEqual(["ALLOW now", "DENY: opens 22:00 (in 35 min)", "ALLOW now"]);
  });

  it("decide on all windows together and name the measures they cannot know", async () => {
    const text =
      "mission m {\n  require phase [0, 120]\n  require phase [60, 200]\n  require carbon < 100\n  on ALLOW { execute a }\n}\nmission never { require phase [10, 20] require phase [30, 40] on ALLOW { execute a } }\n";
    expect(await lensTitles(text)).toEqual(["DENY: opens 04:00 (in 8 h 35 min), then if carbon < 100", "DENY: the phase windows are never open together"]);
  });

  it("skip missions whose windows cannot be decided (a bound out of range)", async () => {
    expect(await lensTitles("mission m { require phase [0, 400] on ALLOW { execute a } }")).toEqual([]);
  });

  it("follow the injected clock", async () => {
    const at = (iso: string) =>
      createLanguageService({ now: () => new Date(iso), viewerTimeZone: "UTC" }).codeLenses(documentOf("mission m { require phase [90, 180] on ALLOW { execute a } }"));
    expect((await at("2026-11-25T05:59:00Z"))[0]?.command?.title).toBe("DENY: opens 06:00 (in 1 min)");
    expect((await at("2026-11-25T06:00:00Z"))[0]?.command?.title).toBe("ALLOW now");
    expect((await at("2026-11-25T12:00:01Z"))[0]?.command?.title).toBe("DENY: opens 06:00 (in 18 h)");
  });
});

describe("inlay hints", () => {
  it("put the clock time in the file's zone after each bound", () => {
    const document = documentOf("@anchor Z3\nmission m {\n  require phase [217.5, 360]\n  require phase [-1, 10]\n}\n");
    const hints = service.inlayHints(document);
    expect(hints.map((h) => [h.position, h.label])).toEqual([
      [{ line: 2, character: 22 }, "14:30"],
      [{ line: 2, character: 27 }, "24:00"],
    ]);
    expect(hints[0]?.tooltip).toBe("217.5 degrees is 14:30 in Z3 (UTC+6)");
  });

  it("only for windows in the requested range", () => {
    const document = documentOf("mission m {\n  require phase [0, 10]\n  require phase [20, 30]\n}\n");
    expect(service.inlayHints(document, { start: { line: 2, character: 0 }, end: { line: 3, character: 0 } }).map((h) => h.label)).toEqual(["01:20", "02:00"]);
  });
});
