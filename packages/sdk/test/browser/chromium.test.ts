import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { build, type Logger } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../../../test/support/chromium.mjs";
import { NEXT_OPEN_AFTER_NOON, NIGHT, NOON, writeMissionApp } from "./mission-app.js";
// The repository's one static server (temporalc playground's): 127.0.0.1 is a secure context, so the page has WebCrypto.
import { serveFolder, type ServedFolder } from "../../../../test/support/static-site.js";

/** A production Vite build of the page, for the browser (Vite's client conditions: browser, import, module, default). */
async function buildPage(root: string): Promise<{ outDir: string; problems: string[] }> {
  const problems: string[] = [];
  const record = (message: string) => void problems.push(message);
  const logger: Logger = {
    info: () => {},
    warn: record,
    warnOnce: record,
    error: record,
    clearScreen: () => {},
    hasErrorLogged: () => false,
    hasWarned: false,
  };
  const outDir = join(root, "dist");
  await build({ root, configFile: false, logLevel: "warn", customLogger: logger, build: { outDir, emptyOutDir: true } });
  return { outDir, problems };
}

let browser: Browser | undefined;
let server: ServedFolder | undefined;
let page: Page;
let buildProblems: string[];
/** Console errors and uncaught exceptions of the page, for as long as it is open. */
const pageErrors: string[] = [];

beforeAll(async () => {
  const app = await writeMissionApp();
  const built = await buildPage(app.dir);
  buildProblems = built.problems;
  server = await serveFolder(built.outDir);
  browser = await launchChromium();
  page = await browser.newPage();
  page.setDefaultTimeout(60_000);
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(`console.error: ${message.text()}`);
  });
  page.on("pageerror", (error) => void pageErrors.push(`uncaught: ${error.message}`));
  // A page whose module throws never becomes ready: fail on its first uncaught error rather than wait out the timeout.
  const crashed = new Promise<never>((_, reject) => page.once("pageerror", (error) => reject(new Error(`the page failed to start: ${error.message}`))));
  crashed.catch(() => {}); // a later error is reported by the tests, through pageErrors
  await page.goto(server.url, { waitUntil: "load" });
  await Promise.race([page.waitForFunction("window.missionPageReady === true"), crashed]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
}, 60_000);

/** Calls `window.missionPage[name](...args)` in the page; a string expression, so nothing of this file is serialised into it. */
function callPage<T>(name: string, ...args: unknown[]): Promise<T> {
  return page.evaluate<T>(`window.missionPage.${name}(${args.map((arg) => JSON.stringify(arg)).join(", ")})`);
}

describe("a compiled mission bundled by Vite, in headless Chromium", () => {
  it("builds with no warnings and loads with no console errors", () => {
    expect(buildProblems).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("evaluate() gives the verdict for a fixed clock: ALLOW at night, DENY at noon with when the window opens", async () => {
    expect(await callPage("evaluateAt", NIGHT)).toEqual({ verdict: "ALLOW", reasons: [], phase_deg: 337.5, next_open_unix_ms: null });
    expect(await callPage("evaluateAt", NOON)).toEqual({ verdict: "DENY", reasons: ["PHASE_OUTSIDE_WINDOW"], phase_deg: 180, next_open_unix_ms: NEXT_OPEN_AFTER_NOON });
    expect(pageErrors).toEqual([]);
  });

  it("run() executes the tasks of the verdict's block, in order, with the decision's context", async () => {
    expect(await callPage("runAt", NIGHT)).toEqual({ verdict: "ALLOW", executed: ["open_gate", "notify"], ran: ["open_gate@337.5", "notify@337.5"], receipts: 0, anchors: 0 });
    expect(await callPage("runAt", NOON)).toEqual({ verdict: "DENY", executed: ["log_denied"], ran: ["log_denied@180"], receipts: 0, anchors: 0 });
    expect(pageErrors).toEqual([]);
  });

  const anchoredAndVerified = {
    verdict: "ALLOW",
    executed: ["open_gate"],
    ran: ["open_gate@337.5"],
    receipts: 1,
    anchors: 1,
    anchoredThisReceipt: true,
    receiptVerifies: true,
    anchorVerifies: true,
    tamperedVerifies: false,
  };

  it("run() with createMemoryAuthority() anchors a receipt whose receipt and anchor proof verify in the page (WebCrypto)", async () => {
    expect(await callPage("runWithMemoryAuthority", NIGHT)).toEqual(anchoredAndVerified);
    expect(pageErrors).toEqual([]);
  });

  it("run() with no sdk anchors with the browser's default authority, the in-memory one, and that verifies too", async () => {
    expect(await callPage("runWithDefaultAuthority", NIGHT)).toEqual(anchoredAndVerified);
    expect(pageErrors).toEqual([]);
  });
});
