import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The built site (`npm run build`, which `npm test` runs first): its service
 * worker must precache exactly the files the page uses, or the playground
 * would not work offline. THIRD_PARTY_NOTICES ships with the package for its
 * readers, not for the page, so it is not precached.
 */
const dist = new URL("../dist/", import.meta.url);

function filesUnder(dir: URL, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(new URL(`${entry.name}/`, dir), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

describe("the built playground", () => {
  it("has a service worker that precaches every other file of the build, under a content version", () => {
    const sw = readFileSync(new URL("sw.js", dist), "utf8");
    const manifest = /\{"version":"([0-9a-f]{16})","files":(\[[^\]]*\])\}/.exec(sw);
    expect(manifest, "sw.js holds the inlined manifest").not.toBeNull();
    const files = JSON.parse(manifest![2]!) as string[];
    const built = filesUnder(dist).filter((file) => file !== "sw.js" && file !== "THIRD_PARTY_NOTICES" && !file.endsWith(".map"));
    // Each file once: index.html serves ./ too (offline navigations fall back to it), so ./ is no entry of its own.
    expect(files).toEqual(built.sort());
    expect(sw).not.toContain("PRECACHE_MANIFEST");
  });

  it("loads its worker as a separate hashed module and references only relative URLs", () => {
    const html = readFileSync(new URL("index.html", dist), "utf8");
    expect(html).toMatch(/src="\.\/assets\/index-[\w-]+\.js"/);
    expect(html).not.toMatch(/(src|href)="\/(?!\/)/);
    expect(filesUnder(dist).some((file) => /^assets\/worker-[\w-]+\.js$/.test(file))).toBe(true);
  });

  it("names in THIRD_PARTY_NOTICES the packages of the page's chunks and of the worker's, which are built apart", () => {
    const notices = readFileSync(new URL("THIRD_PARTY_NOTICES", dist), "utf8");
    const named = [...notices.matchAll(/^={20,}\n(\S+)@\d[^ ]* \(/gm)].map((match) => match[1]);
    // The editor is the page's; the compiler's parser library and the formatter are bundled only into the worker (test below).
    // This guards the plugins as vite.config.ts wires them into a one-off build (`npm run build`): it fails when the worker's
    // modules are not collected at all. A watch rebuild (`vite build --watch` rebuilding the page without its workers), for
    // which the notices are keyed per build, is tested in third-party-notices.test.ts by calling the plugins' hooks.
    for (const name of ["@codemirror/view", "chevrotain", "prettier"]) expect(named).toContain(name);
  });

  it("downloads the compiler and the language service once: in the language worker, never in the page's chunks", () => {
    const assets = filesUnder(new URL("assets/", dist)).filter((file) => file.endsWith(".js"));
    expect(assets.filter((file) => /worker/.test(file))).toEqual([expect.stringMatching(/^worker-[\w-]+\.js$/)]);
    // Chevrotain's parser errors (the compiler) and dialSvg's label (the language service): markers of each.
    const markers = ["NoViableAltException", "24-hour dial"];
    for (const file of assets) {
      const code = readFileSync(new URL(`assets/${file}`, dist), "utf8");
      for (const marker of markers) expect(code.includes(marker), `${file} has ${marker}`).toBe(file.startsWith("worker-"));
    }
  });
});
