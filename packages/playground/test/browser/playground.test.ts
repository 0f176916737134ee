// The playground in a real browser: the built site (dist/) in headless Chromium, driven as a visitor would, each
// answer checked against the toolchain itself in Node (the CLI, the language service, the SDK's verification).
import { readFileSync } from "node:fs";
import { analyze, parse } from "@temporal/compiler";
import { receiptHash, verifyAnchorProof, verifyReceipt, type AnchorProof, type Receipt } from "@temporal/agent-sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlaygroundSettings } from "../../src/state.js";
import { cliDialSvg, cliVerdict, diagnosticsOf, hoverOf, runCommandLine, shareFragment } from "./oracle.js";
import { ARTIFACTS, startSite, type OpenedPage, type Site } from "./site.js";

/** The README's mission: [300, 30] in Z1 (UTC+2) is 20:00 to 02:00 there, 19:00 to 01:00 in Berlin in November. */
const SOURCE = readFileSync(new URL("../../../../examples/nightly-backup.mission", import.meta.url), "utf8");
/** 2026-11-26 22:30 in Berlin, 23:30 in Z1: inside the window. */
const AT = Date.UTC(2026, 10, 26, 21, 30);
const SETTINGS: PlaygroundSettings = { at: AT, carbon: 100, hsBloch: null };

const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);

let site: Site | undefined;
/** The default page (no link), then the page of the fixture link: each test below goes on from where the one before left it. */
let first: OpenedPage;
let fixture: OpenedPage;

beforeAll(async () => {
  site = await startSite();
  [first, fixture] = await Promise.all([site.open(), site.open(shareFragment(SOURCE, SETTINGS))]);
  await Promise.all([first, fixture].map(({ page }) => byTestId(page, "verdict").first().waitFor({ timeout: 60_000 })));
}, 180_000);

afterAll(async () => {
  await site?.close();
}, 60_000);

/** The editor's text as CodeMirror holds it (one `.cm-line` per line; the fixtures are short enough to be all rendered). */
function editorText(page: Page): Promise<string> {
  return page
    .locator('[data-testid="editor"] .cm-line')
    .allInnerTexts()
    .then((lines) => lines.join("\n"));
}

// The two describes below share a page each, in order: a test goes on from the state the one before left (one page
// load for several checks keeps the file near a minute). describe.sequential says so, should the suite ever run
// tests concurrently; a test that needs a known state of its own opens its own page (the last describe).
describe.sequential("the default page", () => {
  it("loads the default example with no console errors, uncaught exceptions or failed requests", async () => {
    await first.page.waitForLoadState("networkidle");
    expect(await editorText(first.page)).toContain("mission ");
    await first.page.screenshot({ path: `${ARTIFACTS}initial.png` });
    // Long lines (the example's comments) wrap: nothing runs out of the editor's width to be scrolled to.
    const overflow = await first.page.locator("#editor .cm-scroller").evaluate((scroller) => scroller.scrollWidth - scroller.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(first.errors).toEqual([]);
  }, 60_000);

  it("offline after the first visit: a reload with the network off still shows the editor, at ./ and at index.html (service worker)", async () => {
    const { page, context } = first;
    const online = await editorText(page);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    // The worker claims the open page when it activates (sw.js: clients.claim()), so no second visit is needed.
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 10_000 }).toBe(true);
    await context.setOffline(true);
    for (const load of [() => page.reload(), () => page.goto(new URL("index.html", site!.url).href), () => page.goto(site!.url)]) {
      await load();
      await byTestId(page, "verdict").first().waitFor();
      expect(await editorText(page)).toBe(online);
    }
    await context.setOffline(false);
  }, 60_000);
});

describe.sequential("a page opened from a share link (the README's mission at 22:30 in Berlin, carbon 100)", () => {
  it("the dial's arcs (data-start-deg, data-end-deg) are the source's windows", async () => {
    const { page } = fixture;
    await page.screenshot({ path: `${ARTIFACTS}shared-link.png` });
    const windows = analyze(parse(SOURCE).ast).missions.map((m) => ({ mission: m.name, arcs: m.windows.map((w) => w.normalized) }));
    const arcs = await byTestId(page, "dial")
      .first()
      .locator("path[data-start-deg]")
      .evaluateAll((paths) =>
        paths.map((p) => ({
          mission: p.closest("[data-mission]")?.getAttribute("data-mission"),
          start: Number(p.getAttribute("data-start-deg")),
          end: Number(p.getAttribute("data-end-deg")),
        })),
      );
    expect(arcs.map(({ mission, start, end }) => ({ mission, arcs: [{ start, end }] }))).toEqual(windows);
  }, 60_000);

  it("the dial's SVG is the one `temporalc show --at --svg` writes for the same source and instant (TZ = the page's zone)", async () => {
    const { page } = fixture;
    const cli = await cliDialSvg(SOURCE, AT);
    // Byte for byte: the markup the panel inserted, which it keeps in data-svg (innerHTML would be the browser's re-serialisation).
    expect(await byTestId(page, "dial").first().getAttribute("data-svg")).toBe(cli);
    // And what is on screen is that markup: both as the browser's XML serialisation of their parse.
    const [fromCli, inPage] = await page.evaluate((svg) => {
      const serialise = (node: Node) => new XMLSerializer().serializeToString(node);
      const parsed = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
      return [serialise(parsed), serialise(document.querySelector('[data-testid="dial"] svg')!)];
    }, cli);
    expect(inPage).toBe(fromCli);
  }, 60_000);

  it("hovering a window shows the language service's hover: its clock times in the file's zone and the viewer's", async () => {
    const { page } = fixture;
    const offset = SOURCE.indexOf("[300, 30]") + 1;
    const hover = hoverOf(SOURCE, offset)!;
    // The Markdown's paragraphs as the tooltip renders them (bold marks gone); the table rows are checked by their cells.
    const paragraphs = String((hover.contents as { value: string }).value)
      .split("\n\n")
      .filter((p) => !p.startsWith("|"))
      .map((p) => p.replaceAll("**", ""));
    expect(paragraphs[0]).toBe("require phase [300, 30]");
    const box = await page.evaluate((index) => {
      const line = [...document.querySelectorAll('[data-testid="editor"] .cm-line')].find((l) => l.textContent?.includes("[300, 30]"))!;
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const at = node.textContent!.indexOf("300");
        if (at === -1) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 3);
        const rect = range.getBoundingClientRect();
        return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
      }
      throw new Error(`no "300" on the line ${index}`);
    }, offset);
    await page.mouse.move(box.x, box.y);
    const tooltip = page.locator(".cm-tooltip-hover");
    await tooltip.waitFor();
    const shown = (await tooltip.innerText()).replace(/\s+/g, " ");
    for (const paragraph of paragraphs) expect(shown).toContain(paragraph.replace(/\s+/g, " "));
    expect(shown).toContain("Europe/Berlin");
  }, 60_000);

  it("Tab alone reaches every control of the page", async () => {
    const { page } = fixture;
    // Every control a visitor can operate: visible, enabled, in the tab order (a tablist's other tabs are reached with
    // arrows). Each is numbered in a data attribute, so controls without an id are told apart too.
    const controls = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, summary, [contenteditable='true'], [tabindex]")]
        .filter((e) => e.tabIndex >= 0 && !(e as HTMLButtonElement).disabled && e.checkVisibility())
        .map((e, i) => {
          e.dataset.e2eControl = String(i);
          return e.dataset.testid || e.id || `${e.tagName.toLowerCase()} "${(e.textContent ?? "").trim().slice(0, 40)}"`;
        }),
    );
    expect(controls).toContain("run-button");
    expect(controls).toContain("time-slider");
    const reached = new Set<number>();
    for (let i = 0; i < controls.length * 2 + 5 && reached.size < controls.length; i++) {
      await page.keyboard.press("Tab");
      const control = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.e2eControl);
      if (control !== undefined) reached.add(Number(control));
    }
    expect(controls.filter((_, i) => !reached.has(i))).toEqual([]);
  }, 60_000);

  it("Run issues a receipt the page verifies, and that verifies in Node too with the public key the page shows", async () => {
    const { page, errors } = fixture;
    await byTestId(page, "run-button").click();
    const verification = byTestId(page, "receipt-verification").first();
    await verification.waitFor();
    expect(await verification.getAttribute("data-valid")).toBe("true");
    await page.locator("details").evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    await page.screenshot({ path: `${ARTIFACTS}run.png`, fullPage: true });

    const receipt = JSON.parse(await byTestId(page, "receipt-json").first().innerText()) as Receipt;
    const proof = JSON.parse(await byTestId(page, "proof-json").first().innerText()) as AnchorProof;
    // The authority lives in the language worker; the page shows its public keys, as a service's GET keys body.
    const shown = JSON.parse((await byTestId(page, "run-public-keys").textContent()) ?? "") as { keys: Record<string, { x: string }> };
    const keys = Object.values(shown.keys).map((jwk) => jwk.x);
    const verifies = await Promise.all(keys.map((x) => verifyReceipt(receipt, Buffer.from(x, "base64url"))));
    const signer = keys.find((_, i) => verifies[i]);
    expect(signer).toBeDefined();
    expect(proof.receipt_hash).toBe(receiptHash(receipt));
    const key = Buffer.from(signer!, "base64url");
    expect(await verifyAnchorProof(proof, key)).toBe(true);
    expect(await verifyReceipt({ ...receipt, phi_action_ticks: receipt.phi_action_ticks + 1 }, key)).toBe(false);
    expect(errors).toEqual([]);
  }, 60_000);

  it("moving the slider across the window's closing edge flips the verdict at the minute the CLI says", async () => {
    const { page, errors } = fixture;
    // The window closes at 02:00 in Z1 = 00:00 UTC = 01:00 in Berlin: slider minute 60 of the Berlin day, bounds included.
    const lastOpen = Date.UTC(2026, 10, 26, 0, 0);
    const [before, after] = [await cliVerdict(SOURCE, lastOpen, 100), await cliVerdict(SOURCE, lastOpen + 60_000, 100)];
    expect([before, after]).toEqual(["ALLOW", "DENY"]);
    const slider = byTestId(page, "time-slider");
    const verdict = byTestId(page, "verdict").first();
    await slider.fill("60");
    await expect.poll(() => verdict.getAttribute("data-verdict"), { timeout: 10_000 }).toBe(before);
    await slider.press("ArrowRight");
    expect(await slider.inputValue()).toBe("61");
    await expect.poll(() => verdict.getAttribute("data-verdict"), { timeout: 10_000 }).toBe(after);
    expect(errors).toEqual([]);
  }, 60_000);

  it("the equivalent `temporalc run` line, run by a shell on the page's source, gives the page's verdict", async () => {
    const { page } = fixture;
    const verdict = await byTestId(page, "verdict").first().getAttribute("data-verdict");
    const line = (await byTestId(page, "command-line").innerText()).split("\n").find((l) => l.startsWith("temporalc run "));
    expect(line).toBeDefined();
    const report = JSON.parse(await runCommandLine(await editorText(page), line!, "--dry-run --json"));
    expect(report.verdict).toBe(verdict);
  }, 60_000);

  it("a share link round-trips: the Share button's link opens the same source and settings in a new page", async () => {
    const { page, context } = fixture;
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.locator('[data-testid="editor"] .cm-content').click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n// shared at 19:05");
    await byTestId(page, "carbon-input").fill("123.5");
    await byTestId(page, "time-slider").fill(String(19 * 60 + 5));
    const source = await editorText(page);
    const controls = (on: Page) => Promise.all(["carbon-input", "hs-bloch-input", "time-slider", "time-datetime"].map((id) => byTestId(on, id).inputValue()));
    const settings = ["123.5", "", "1145", "2026-11-26T19:05"];
    // The panel shows the new settings in every field once it has taken them in.
    await expect.poll(() => controls(page), { timeout: 10_000 }).toEqual(settings);
    await byTestId(page, "share-button").click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: 10_000 }).toContain("#v1.");
    const link = await page.evaluate(() => navigator.clipboard.readText());

    const shared = await site!.open(new URL(link).hash);
    try {
      await byTestId(shared.page, "verdict").first().waitFor();
      expect(await editorText(shared.page)).toBe(source);
      expect(await controls(shared.page)).toEqual(settings);
      expect(shared.errors).toEqual([]);
    } finally {
      await shared.context.close();
    }
  }, 60_000);

  it("typing an error shows its code and message in the problems list and underlines it in the editor", async () => {
    const { page, errors } = fixture;
    await page.locator('[data-testid="editor"] .cm-content').click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\nmissoin late");
    const text = await editorText(page);
    const expected = diagnosticsOf(text).find((d) => d.severity === 1)!;
    expect(expected.code).toBe("M102");
    const item = page.locator(`[data-testid="diagnostics"] li[data-code="${String(expected.code)}"]`);
    await item.waitFor();
    expect(await item.innerText()).toContain(expected.message);
    await page.locator(".cm-lintRange-error").first().waitFor();
    await page.screenshot({ path: `${ARTIFACTS}diagnostic.png` });
    expect(errors).toEqual([]);
  }, 60_000);
});

// Each test here opens a page of its own: none depends on what another left behind.
describe("the page's edges: the skip link, a syntax error at the end of the file, a link with settings no panel can show", () => {
  it("the skip link puts the focus in the editor and leaves the address and the status line alone", async () => {
    const { page, context, errors } = await site!.open();
    try {
      await byTestId(page, "verdict").first().waitFor();
      const hash = await page.evaluate(() => location.hash);
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("skip-to-editor");
      await page.keyboard.press("Enter");
      await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains("cm-content") ?? false)).toBe(true);
      expect(await page.evaluate(() => location.hash)).toBe(hash);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("an error at the very end of the file (zero width) is listed and underlined", async () => {
    const { page, context, errors } = await site!.open(shareFragment("mission oops {", { at: AT, carbon: null, hsBloch: null }));
    try {
      await page.locator('[data-testid="diagnostics"] li[data-code="M102"]').waitFor();
      const underlined = page.locator(".cm-lintRange-error");
      await underlined.first().waitFor();
      expect(await underlined.first().innerText()).toBe("{");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("a link whose instant no date can hold is refused as damaged, and the panel shows the default example", async () => {
    const { page, context, errors } = await site!.open(shareFragment(SOURCE, { at: 1e300, carbon: null, hsBloch: null }));
    try {
      await byTestId(page, "verdict").first().waitFor();
      expect(await byTestId(page, "notice").innerText()).toContain("(SHARE_LINK_CORRUPT)");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("a link at the last instant a Date holds opens, and the time panel decides at it without an error", async () => {
    const { page, context, errors } = await site!.open(shareFragment(SOURCE, { at: 8.64e15, carbon: null, hsBloch: null }));
    try {
      await byTestId(page, "verdict").first().waitFor();
      expect(await byTestId(page, "command-line").innerText()).toContain("--at +275760-09-13T00:00:00Z");
      expect(await byTestId(page, "notice").innerText()).toBe("");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
