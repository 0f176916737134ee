// The extension as users install it: `vsce package` builds the .vsix (its `vscode:prepublish` bundles the extension
// and the server with esbuild), the test reads the zip's listing and manifest, and starts the bundled server from a
// folder outside the repository, where no node_modules could fill in for something the bundle lacks.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { inflateRawSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LspProcess } from "../../language-server/test/lsp-process.js";

const packageDir = fileURLToPath(new URL("../", import.meta.url));
const repo = fileURLToPath(new URL("../../../", import.meta.url));
const vsce = join(dirname(createRequire(import.meta.url).resolve("@vscode/vsce/package.json")), "vsce");
const tmp = mkdtempSync(join(tmpdir(), "vscode-mission-"));
let entries: Map<string, Buffer>;

/** The files of a zip archive by name, read from its central directory (stored or deflated entries, as vsce writes). */
function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + skip;
  }
  return files;
}

beforeAll(() => {
  const vsix = join(tmp, "vscode-mission.vsix");
  execFileSync(process.execPath, [vsce, "package", "--no-dependencies", "--out", vsix], { cwd: packageDir, stdio: ["ignore", "ignore", "inherit"] });
  entries = unzip(readFileSync(vsix));
}, 120_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the .vsix that vsce packages", () => {
  it("holds the two bundles, their licence notices, the grammar, the language configuration and the manifest", () => {
    expect([...entries.keys()].filter((name) => name.startsWith("extension/")).sort()).toEqual([
      "extension/LICENSE.txt",
      "extension/dist/THIRD_PARTY_NOTICES",
      "extension/dist/extension.cjs",
      "extension/dist/mission.tmLanguage.json",
      "extension/dist/server.mjs",
      "extension/language-configuration.json",
      "extension/package.json",
      "extension/readme.md",
    ]);
    expect(entries.has("extension.vsixmanifest")).toBe(true);
  });

  it("contributes the mission language with the repository's own grammar", () => {
    const manifest = JSON.parse(entries.get("extension/package.json")!.toString("utf8"));
    expect(manifest.engines.vscode).toBe("^1.82.0");
    expect(manifest.main).toBe("./dist/extension.cjs");
    expect(manifest.contributes.languages[0]).toMatchObject({ id: "mission", extensions: [".mission"], configuration: "./language-configuration.json" });
    expect(manifest.contributes.grammars[0]).toEqual({ language: "mission", scopeName: "source.mission", path: "./dist/mission.tmLanguage.json" });
    expect(entries.get("extension/dist/mission.tmLanguage.json")!.equals(readFileSync(join(repo, "grammar/mission.tmLanguage.json")))).toBe(true);
    const configuration = JSON.parse(entries.get("extension/language-configuration.json")!.toString("utf8"));
    expect(configuration.comments).toEqual({ lineComment: "//", blockComment: ["/*", "*/"] });
  });

  it("carries the licence of every third-party package in its bundles", () => {
    const notices = entries.get("extension/dist/THIRD_PARTY_NOTICES")!.toString("utf8");
    expect(notices).toMatch(/^vscode-mission bundles the following third-party packages/);
    const sections = [...notices.matchAll(/^(\S+)@\d\S* \((.+)\)$/gm)].map(([, name, licence]) => `${name} ${licence}`);
    expect(sections).toEqual(expect.arrayContaining(["chevrotain Apache-2.0", "prettier MIT", "vscode-languageclient MIT", "vscode-languageserver MIT"]));
  });

  it("bundles the extension with only `vscode` left to VS Code", () => {
    const extension = entries.get("extension/dist/extension.cjs")!.toString("utf8");
    const required = [...extension.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!);
    expect(required).toContain("vscode");
    expect(required.filter((name) => name !== "vscode" && !isBuiltin(name))).toEqual([]);
  });

  it("ships a server that runs on its own, outside the repository, and leaves diagnostics to a pulling client", async () => {
    const folder = join(tmp, "installed", "dist");
    mkdirSync(folder, { recursive: true });
    const script = join(folder, "server.mjs");
    writeFileSync(script, entries.get("extension/dist/server.mjs")!);
    const server = new LspProcess(script);
    try {
      // As VS Code does: the client pulls diagnostics, so the server pushes none.
      await server.request("initialize", { processId: null, rootUri: null, capabilities: { textDocument: { diagnostic: { dynamicRegistration: false } } } });
      server.notify("initialized", {});
      const uri = pathToFileURL(join(tmp, "a.mission")).href;
      server.notify("textDocument/didOpen", { textDocument: { uri, languageId: "mission", version: 1, text: "mission m {\n  require phase [0, 400]\n}\n" } });
      const pulled = await server.request("textDocument/diagnostic", { textDocument: { uri } });
      expect(pulled.items.map((d: any) => d.code)).toEqual(["M202", "M502", "M300"]);
      // Messages are handled in order: a push for the opened document would have come before the pull's answer.
      expect(server.notifications.filter((n) => n.method === "textDocument/publishDiagnostics")).toEqual([]);
      expect(await server.request("shutdown", null)).toBeNull();
      server.notify("exit", null);
      expect(await server.exited).toBe(0);
      expect(server.stdoutProblems).toEqual([]);
    } finally {
      server.kill();
    }
  });
});
