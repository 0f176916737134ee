// The server as an editor runs it: the bin as a subprocess, LSP over stdio. Each feature is asked for as an editor
// would, and the answers are checked against what the compiler (through `temporalc check --json`) says.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LspProcess } from "./lsp-process.js";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const temporalc = join(repo, "bin/temporalc");
const nightly = readFileSync(join(repo, "examples/nightly-backup.mission"), "utf8");
const typos = readFileSync(join(repo, "fixtures/invalid/typos.mission"), "utf8");
// 19:25 in zone Z1: the nightly window [300, 30] opens at 20:00, in 35 minutes.
const now = "2026-11-22T17:25:00Z";
const tmp = mkdtempSync(join(tmpdir(), "language-server-"));
// The nightly mission with CRLF line breaks and emoji before the window, and the same after the edit the test makes.
const crlf = nightly.replace(/\n/g, "\r\n").replace("  require phase [300, 30]", "  /* 🌙😴 */ require phase [300, 30]");
const crlfEdited = crlf.replace("[300, 30]", "[300, 400]");

/**
 * `temporalc check --json` on each text (one process for all), as the LSP shapes diagnostics: 0-based lines and
 * columns, numeric severities.
 */
function cliDiagnostics(...texts: string[]) {
  const files = texts.map((text, i) => {
    const file = join(tmp, `cli-${i}.mission`);
    writeFileSync(file, text);
    return file;
  });
  const result = spawnSync(process.execPath, [temporalc, "check", "--json", ...files], { encoding: "utf8" });
  const severities = { error: 1, warning: 2, info: 3 } as const;
  const diagnostics = JSON.parse(result.stdout).diagnostics as any[];
  return files.map((file) =>
    diagnostics
      .filter((d) => d.file === file)
      .map((d) => ({
        code: d.code,
        severity: severities[d.severity as keyof typeof severities],
        message: d.message,
        range: { start: { line: d.range.start.line - 1, character: d.range.start.column - 1 }, end: { line: d.range.end.line - 1, character: d.range.end.column - 1 } },
      })),
  );
}

const comparable = (diagnostics: any[]) => diagnostics.map(({ code, severity, message, range }) => ({ code, severity, message, range }));

/** `text` with the LSP text edits applied (offsets of the original text; the edits do not overlap). */
function applyEdits(text: string, edits: { range: any; newText: string }[]): string {
  const lineStarts = [0, ...[...text.matchAll(/\r\n|\r|\n/g)].map((m) => m.index + m[0].length)];
  const offset = (p: { line: number; character: number }) => (lineStarts[p.line] ?? text.length) + p.character;
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce((result, edit) => result.slice(0, offset(edit.range.start)) + edit.newText + result.slice(offset(edit.range.end)), text);
}

let server: LspProcess;
let capabilities: any;
let uriCount = 0;
let expected: { typos: any[]; crlfEdited: any[] };

/** Opens `text` in the server and resolves with its URI once its first diagnostics are published. */
async function open(text: string): Promise<{ uri: string; diagnostics: any[] }> {
  const uri = pathToFileURL(join(tmp, `doc-${++uriCount}.mission`)).href;
  server.notify("textDocument/didOpen", { textDocument: { uri, languageId: "mission", version: 1, text } });
  const published = await server.notification("textDocument/publishDiagnostics", (p) => p.uri === uri && p.version === 1);
  return { uri, diagnostics: published.diagnostics };
}

beforeAll(async () => {
  server = new LspProcess();
  const initialized = await server.request("initialize", {
    processId: process.pid,
    rootUri: null,
    // No pull-diagnostics capability: the server pushes them (pull is asked for below all the same).
    capabilities: { textDocument: { synchronization: { dynamicRegistration: false } } },
    initializationOptions: { now, viewerTimeZone: "America/New_York" },
  });
  expect(initialized.serverInfo).toEqual({ name: "temporal-language-server", version: JSON.parse(readFileSync(join(repo, "packages/language-server/package.json"), "utf8")).version });
  capabilities = initialized.capabilities;
  server.notify("initialized", {});
  const [typosDiagnostics, crlfEditedDiagnostics] = cliDiagnostics(typos, crlfEdited);
  expected = { typos: typosDiagnostics!, crlfEdited: crlfEditedDiagnostics! };
});

afterAll(() => {
  server.kill();
  rmSync(tmp, { recursive: true, force: true });
});

describe("the language server over stdio", () => {
  it("announces every feature, with incremental sync", () => {
    expect(capabilities.textDocumentSync.change).toBe(2);
    for (const provider of [
      "diagnosticProvider",
      "hoverProvider",
      "inlayHintProvider",
      "codeLensProvider",
      "completionProvider",
      "documentFormattingProvider",
      "documentSymbolProvider",
      "foldingRangeProvider",
      "selectionRangeProvider",
      "definitionProvider",
      "referencesProvider",
      "renameProvider",
      "codeActionProvider",
      "semanticTokensProvider",
    ]) {
      expect(capabilities[provider], provider).toBeTruthy();
    }
  });

  it("pushes and answers pulls with exactly the diagnostics of temporalc check", async () => {
    const { uri, diagnostics } = await open(typos);
    expect(expected.typos.length).toBeGreaterThan(3);
    expect(comparable(diagnostics)).toEqual(expected.typos);
    const pulled = await server.request("textDocument/diagnostic", { textDocument: { uri } });
    expect(pulled.kind).toBe("full");
    expect(pulled.items).toEqual(diagnostics);
    expect((await open(nightly)).diagnostics).toEqual([]);
  });

  it("follows incremental edits counted in UTF-16 across CRLF lines and emoji", async () => {
    const text = crlf;
    const { uri, diagnostics } = await open(text);
    expect(diagnostics).toEqual([]);
    const line = text.split("\r\n").findIndex((l) => l.includes("require phase"));
    // LSP counts UTF-16 code units: each emoji is two of them, but one code point.
    const before = "  /* 🌙😴 */ require phase [300, ";
    const character = before.length;
    expect([...before].length).toBe(character - 2);
    const edits = [
      { range: { start: { line, character }, end: { line, character: character + 2 } }, text: "400" },
      // A second edit in the same notification, on the line before: a CRLF line break inserted and removed again.
      { range: { start: { line: line - 1, character: 0 }, end: { line: line - 1, character: 0 } }, text: "\r\n" },
      { range: { start: { line: line - 1, character: 0 }, end: { line, character: 0 } }, text: "" },
    ];
    server.notify("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: edits });
    const published = await server.notification("textDocument/publishDiagnostics", (p) => p.uri === uri && p.version === 2);
    const edited = crlfEdited;
    expect(comparable(published.diagnostics)).toEqual(expected.crlfEdited);
    expect(published.diagnostics.map((d: any) => d.code)).toEqual(["M300"]);
    expect(published.diagnostics[0].range.start).toEqual({ line, character });

    // The quick fix for the out-of-range bound, applied by the client, writes the same angle within 0 to 360.
    const [fix] = await server.request("textDocument/codeAction", {
      textDocument: { uri },
      range: published.diagnostics[0].range,
      context: { diagnostics: published.diagnostics, only: ["quickfix"] },
    });
    expect(fix.kind).toBe("quickfix");
    const fixed = applyEdits(edited, fix.edit.changes[uri]);
    expect(fixed).toBe(text.replace("[300, 30]", "[300, 40]"));
  });

  it("hovers a window with its clock times, and shows inlay hints and a code lens by the injected clock", async () => {
    const { uri } = await open(nightly);
    const lines = nightly.split("\n");
    const line = lines.findIndex((l) => l.includes("require phase"));
    const hover = await server.request("textDocument/hover", { textDocument: { uri }, position: { line, character: lines[line]!.indexOf("300") + 1 } });
    expect(hover.contents.value).toContain("| Z1 (UTC+2), the file's zone | 20:00 | 02:00 |");
    // The viewer's zone from initializationOptions: the window opens at 18:00 UTC, 13:00 in New York.
    expect(hover.contents.value).toMatch(/\| America\/New_York[^|]*\| 13:00 \| 19:00 \|/);

    const hints = await server.request("textDocument/inlayHint", { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } } });
    expect(hints.map((h: any) => h.position.line)).toContain(line);
    expect(JSON.stringify(hints)).toContain("20:00");

    const lenses = await server.request("textDocument/codeLens", { textDocument: { uri } });
    expect(lenses.map((l: any) => l.command.title)).toEqual([expect.stringMatching(/^DENY: opens 20:00 \(in 35 min\)/)]);
  });

  it("completes keywords in half-typed code and task names used elsewhere", async () => {
    const text = "@temporal v4.6.2\nmission a {\n  on ALLOW { execute backup_db }\n}\nmission b {\n  on ALLOW {\n    execute \n";
    const { uri } = await open(text);
    const tasks = await server.request("textDocument/completion", { textDocument: { uri }, position: { line: 6, character: 12 } });
    expect(tasks.items.map((i: any) => i.label)).toContain("backup_db");
    const keywords = await server.request("textDocument/completion", { textDocument: { uri }, position: { line: 5, character: 5 } });
    expect(keywords.items.map((i: any) => i.label)).toEqual(expect.arrayContaining(["ALLOW", "DENY"]));
  });

  it("formats through the Prettier plugin", async () => {
    const messy = nightly.replace("mission nightly_backup {", "mission   nightly_backup    {").replace("    execute snapshot_db", "execute snapshot_db");
    const { uri } = await open(messy);
    const edits = await server.request("textDocument/formatting", { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    expect(edits.length).toBeGreaterThan(0);
    expect(applyEdits(messy, edits)).toBe(nightly);
    const { uri: formatted } = await open(nightly);
    expect(await server.request("textDocument/formatting", { textDocument: { uri: formatted }, options: { tabSize: 2, insertSpaces: true } })).toEqual([]);
  });

  it("gives document symbols, folding ranges, selection ranges and semantic tokens", async () => {
    const { uri } = await open(nightly);
    const symbols = await server.request("textDocument/documentSymbol", { textDocument: { uri } });
    expect(symbols.map((s: any) => s.name)).toEqual(["nightly_backup"]);
    const folds = await server.request("textDocument/foldingRange", { textDocument: { uri } });
    expect(folds.length).toBeGreaterThanOrEqual(3);
    const line = nightly.split("\n").findIndex((l) => l.includes("execute snapshot_db"));
    const [selection] = await server.request("textDocument/selectionRange", { textDocument: { uri }, positions: [{ line, character: 14 }] });
    const depth = (s: any): number => (s === undefined ? 0 : 1 + depth(s.parent));
    expect(depth(selection)).toBeGreaterThanOrEqual(3);
    const tokens = await server.request("textDocument/semanticTokens/full", { textDocument: { uri } });
    expect(tokens.data.length % 5).toBe(0);
    expect(tokens.data.length).toBeGreaterThan(5 * 10);
  });

  it("goes to definition, finds references and renames missions and tasks, refusing an invalid name", async () => {
    const text = "@temporal v4.6.2\nmission a {\n  on ALLOW { execute backup }\n}\nmission b {\n  on ALLOW { execute backup }\n}\n";
    const { uri } = await open(text);
    const column = "  on ALLOW { execute ".length;
    const second = { line: 5, character: column + 3 };
    const definition = await server.request("textDocument/definition", { textDocument: { uri }, position: second });
    expect(definition).toEqual({ uri, range: { start: { line: 2, character: column }, end: { line: 2, character: column + "backup".length } } });
    const references = await server.request("textDocument/references", { textDocument: { uri }, position: second, context: { includeDeclaration: true } });
    expect(references.map((r: any) => r.range.start.line)).toEqual([2, 5]);
    const prepared = await server.request("textDocument/prepareRename", { textDocument: { uri }, position: second });
    expect(prepared.placeholder).toBe("backup");
    const renamed = await server.request("textDocument/rename", { textDocument: { uri }, position: second, newName: "snapshot" });
    expect(applyEdits(text, renamed.changes[uri])).toBe(text.replaceAll("backup", "snapshot"));
    await expect(server.request("textDocument/rename", { textDocument: { uri }, position: second, newName: "2x" })).rejects.toMatchObject({
      code: -32803,
      message: expect.stringContaining("is not a name"),
    });
  });

  it("answers null for a document it was never given, and drops a closed one", async () => {
    const unknown = { textDocument: { uri: "file:///nowhere.mission" }, position: { line: 0, character: 0 } };
    expect(await server.request("textDocument/hover", unknown)).toBeNull();
    const { uri } = await open(typos);
    server.notify("textDocument/didClose", { textDocument: { uri } });
    expect(await server.notification("textDocument/publishDiagnostics", (p) => p.uri === uri && p.diagnostics.length === 0)).toMatchObject({ diagnostics: [] });
    expect(await server.request("textDocument/hover", { ...unknown, textDocument: { uri } })).toBeNull();
  });

  it("cancels a request the editor gave up on before it was answered", async () => {
    const { uri } = await open(nightly);
    const id = server.takeId();
    const reply = server.response(id);
    // The request and its cancellation arrive in one chunk, so the server sees the cancellation before answering.
    server.write([
      { jsonrpc: "2.0", id, method: "textDocument/formatting", params: { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } } },
      { jsonrpc: "2.0", method: "$/cancelRequest", params: { id } },
    ]);
    await expect(reply).rejects.toMatchObject({ code: -32800 });
    // The server goes on answering.
    expect(await server.request("textDocument/documentSymbol", { textDocument: { uri } })).toHaveLength(1);
  });

  it("refuses an initializationOptions clock it cannot read, saying what to write", async () => {
    const probe = new LspProcess();
    await expect(probe.request("initialize", { processId: null, rootUri: null, capabilities: {}, initializationOptions: { now: "tomorrow" } })).rejects.toMatchObject({
      message: expect.stringContaining('initializationOptions.now must be an ISO 8601 time such as "2026-11-22T18:25:00Z"'),
    });
    probe.kill();
  });

  it("exits 0 after shutdown and exit, having written nothing but LSP frames on stdout", async () => {
    expect(await server.request("shutdown", null)).toBeNull();
    server.notify("exit", null);
    expect(await server.exited).toBe(0);
    expect(server.stdoutProblems).toEqual([]);
  });
});
