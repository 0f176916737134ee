import { describe, expect, it } from "vitest";
import { createLanguageService } from "../src/index.js";
import { NOW, withCursor } from "./helpers.js";

const service = createLanguageService({ now: () => NOW, viewerTimeZone: "America/New_York" });

function hoverText(marked: string): string {
  const { document, position } = withCursor(marked);
  const hover = service.hover(document, position);
  if (hover === null) return "";
  return typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
}

const HEADER = "@temporal v4.6.2\n@anchor Z1\n";

describe("hover", () => {
  it("says what an anchor's clauses do", () => {
    const text = hoverText(`${HEADER}mission m {\n  require phase [300, 30]\n  on ALLOW { anchor TSAE -> clockchain sig|ned ZTT quorum 3 }\n}\n`);
    expect(text).toContain("`signed ZTT`: before it is anchored, the receipt is also signed by a fresh key the authority certifies for the mission's phase window only");
    expect(text).toContain("`quorum 3`: the run waits until at least 3 witnesses have cosigned");
    expect(hoverText(`${HEADER}mission m {\n  on ALLOW { anch|or TSAE -> clockchain }\n}\n`)).not.toContain("signed ZTT");
  });

  it("shows a window as clock times in the file's zone, in UTC and in the viewer's zone", () => {
    const text = hoverText(`${HEADER}mission m {\n  require phase [3|00, 30]\n  on ALLOW { execute t }\n}\n`);
    expect(text).toContain("require phase [300, 30]");
    expect(text).toContain("| Z1 (UTC+2), the file's zone | 20:00 | 02:00 |");
    expect(text).toContain("| UTC | 18:00 | 00:00 |");
    // New York is UTC-5 in November.
    expect(text).toContain("| America/New_York (yours) | 13:00 | 19:00 |");
    expect(text).toContain("wraps through midnight");
  });

  it("reads the viewer's clock with its daylight saving at the next time each bound comes round", () => {
    const marked = "mission m {\n  require phase [3|00, 30]\n  on ALLOW { execute t }\n}\n";
    const { document, position } = withCursor(marked);
    const inParis = (iso: string) => createLanguageService({ now: () => new Date(iso), viewerTimeZone: "Europe/Paris" }).hover(document, position)?.contents;
    expect(JSON.stringify(inParis("2026-07-01T12:00:00Z"))).toContain("| Europe/Paris (yours) | 22:00 | 04:00 |");
    expect(JSON.stringify(inParis("2026-11-25T12:00:00Z"))).toContain("| Europe/Paris (yours) | 21:00 | 03:00 |");
    // It opens at 20:00 UTC on 24 October, 22:00 in Paris (summer time), and closes at 02:00 UTC on the 25th, after
    // the clocks went back at 01:00 UTC: 03:00 in Paris.
    expect(JSON.stringify(inParis("2026-10-24T12:00:00Z"))).toContain("| Europe/Paris (yours) | 22:00 | 03:00 |");
  });

  it("shows a clock-time window on an IANA zone's clock, and what the anchor means", () => {
    const file = "@anchor Europe/Paris\nmission m {\n  require phase [20:|00, 02:00]\n  on ALLOW { execute t }\n}\n";
    const text = hoverText(file);
    expect(text).toContain("| Europe/Paris, the file's zone | 20:00 | 02:00 |");
    // Winter: Paris is UTC+1, New York UTC-5.
    expect(text).toContain("| UTC | 19:00 | 01:00 |");
    expect(text).toContain("| America/New_York (yours) | 14:00 | 20:00 |");
    expect(hoverText("@anchor Europe/Pa|ris\nmission m {}")).toContain("wall-clock time of Europe/Paris, daylight saving included");
  });

  it("says what a carbon requirement means and which one decides", () => {
    const text = hoverText(`${HEADER}mission m {\n  require carbon < 300\n  require car|bon <= 120\n  on ALLOW { execute t }\n}\n`);
    expect(text).toContain("at most 120 gCO2eq/kWh");
    expect(hoverText(`${HEADER}mission m {\n  require carbon < 3|00\n  require carbon <= 120\n  on ALLOW { execute t }\n}\n`)).toContain("`carbon <= 120` is stricter");
  });

  it("explains a diagnostic under the cursor with its title, help and docs link", () => {
    const text = hoverText(`${HEADER}mission m {\n  require phase [10, 4|00]\n  on ALLOW { execute t }\n}\n`);
    expect(text).toContain("**M300** phase bound out of range (error)");
    expect(text).toContain("docs/diagnostics.md#m300-phase-bound-out-of-range-error");
  });

  it("describes missions and tasks", () => {
    expect(hoverText(`${HEADER}mission ni|ghtly {\n  require phase [0, 90]\n  on ALLOW { execute backup }\n}\n`)).toMatch(/mission nightly[\s\S]*00:00–06:00 in Z1[\s\S]*`backup`/);
    expect(hoverText(`${HEADER}mission a {\n  on ALLOW { execute bac|kup }\n}\nmission b {\n  on ALLOW { execute backup }\n}\n`)).toContain("executed 2 times in this file, by `a`, `b`");
  });

  it("is null where there is nothing to say", () => {
    expect(service.hover(withCursor(`${HEADER}|\nmission m { on ALLOW { execute t } }\n`).document, { line: 99, character: 0 })).toBeNull();
  });
});
