// The built playground (packages/playground/dist) served on loopback and opened in headless Chromium, with the page's
// clock reading pinned (time zone, locale) so what it shows is the same on every machine.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "../../../../test/support/chromium.mjs";
import { serveFolder } from "../../../../test/support/static-site.js";

/** The viewer's zone and locale of every page: a zone with daylight saving, so the dial's local ring is not UTC's. */
export const PAGE_TIME_ZONE = "Europe/Berlin";
export const PAGE_LOCALE = "en-GB";

export const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));
export const ARTIFACTS = fileURLToPath(new URL("../artifacts/", import.meta.url));

/** A page and everything it reported as broken: console errors, uncaught exceptions, failed requests. */
export interface OpenedPage {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly errors: string[];
}

export interface Site {
  readonly url: string;
  open(path?: string): Promise<OpenedPage>;
  close(): Promise<void>;
}

/** Serves dist/ and launches the browser; `close()` stops both, whichever of them started. */
export async function startSite(): Promise<Site> {
  if (!existsSync(`${DIST}index.html`)) throw new Error(`the playground is not built (no ${DIST}index.html): run \`npm run build\` first`);
  await mkdir(ARTIFACTS, { recursive: true });
  // The playground's own server, as `temporalc playground` runs it, on a free loopback port.
  const server = await serveFolder(DIST);
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (error) {
    await server.close();
    throw error;
  }
  const { url } = server;
  return {
    url,
    async open(path = "") {
      const context = await browser.newContext({ timezoneId: PAGE_TIME_ZONE, locale: PAGE_LOCALE, viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(`console.error: ${message.text()} (${message.location().url})`);
      });
      page.on("pageerror", (error) => void errors.push(`uncaught: ${error.message}`));
      // The console says only "Failed to load resource"; this says which.
      page.on("response", (response) => {
        if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${new URL(response.url()).pathname}`);
      });
      await page.goto(new URL(path, url).href);
      return { page, context, errors };
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
