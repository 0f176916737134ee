// The language server as an editor feels it, on a 2,000-line mission file: the time from an edit (didChange) to
// its published diagnostics, against the compiler's parse() + check() alone on the same text in this process (target
// <= 2x: the server adds the protocol, the text edit, the analysis the other features share and the conversion to
// LSP types); and the latency of completion requests, p50 and p99.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { check, parse } from "@temporal/compiler";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node.js";
import { cpuSecondsOfStat, fixed, missionSource, printTable } from "./harness.mjs";

const serverBin = fileURLToPath(new URL("../packages/language-server/bin/temporal-language-server.js", import.meta.url));
const runs = 61;
// Edits before timing: the server's compiler is optimised by V8 only after a few calls (the baseline's too).
const warmups = 20;
const completions = 400;

/** A text of at least `lines` lines: whole missions from the harness's generator, which every benchmark shares. */
function sourceOfLines(lines) {
  for (let bytes = lines * 20; ; bytes = Math.ceil(bytes * 1.1)) {
    const text = missionSource(bytes);
    if (text.split("\n").length >= lines) return text;
  }
}

const percentile = (samples, p) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor((samples.length * p) / 100))];
const median = (samples) => percentile(samples, 50);

const text = sourceOfLines(2000);
const lines = text.split("\n");
// The edit: one carbon threshold changes between two values that are both valid, so every version has the same
// diagnostics and each publish is the whole file's.
const editLine = lines.findIndex((line) => line.includes("require carbon < 100"));
const editCharacter = lines[editLine].indexOf("100");

// Node options for the server alone, e.g. LSP_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" (Node refuses
// --cpu-prof in NODE_OPTIONS).
const serverNodeArgs = (process.env.LSP_SERVER_NODE_ARGS ?? "").split(" ").filter((arg) => arg !== "");
const child = spawn(process.execPath, [...serverNodeArgs, serverBin, "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
const published = new Map();
connection.onNotification("textDocument/publishDiagnostics", (params) => published.get(params.version)?.(params));
connection.listen();

const uri = "file:///bench/large.mission";
const diagnosticsOf = (version) => new Promise((resolve) => published.set(version, resolve));
await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {} });
await connection.sendNotification("initialized", {});
let version = 1;
const opened = diagnosticsOf(version);
await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "mission", version, text } });
const openedDiagnostics = (await opened).diagnostics.length;

async function editToDiagnostics() {
  version++;
  const arrived = diagnosticsOf(version);
  const start = process.hrtime.bigint();
  const range = { start: { line: editLine, character: editCharacter }, end: { line: editLine, character: editCharacter + 3 } };
  await connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ range, text: version % 2 === 0 ? "101" : "100" }] });
  await arrived;
  return Number(process.hrtime.bigint() - start) / 1e6;
}

// No gc() before a sample, unlike the in-process benchmarks: the server collects its garbage within the round trips
// it is timed on, so the baseline pays for its own collections too.
function checkAlone() {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const { ast } = parse(text, { filename: "large.mission" });
  check(ast);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const { user, system } = process.cpuUsage(cpu);
  checkCpuMs += (user + system) / 1000;
  return ms;
}
// This process's CPU time in parse() + check() (all threads, so the collector's helpers too), summed over the timed runs.
let checkCpuMs = 0;

// The protocol alone: a request the server answers without any work (a hover in a document it was never given), so
// the figures show how much of a round trip is the pipe and the two processes being scheduled, not the checking.
async function emptyRoundTrip() {
  const start = process.hrtime.bigint();
  await connection.sendRequest("textDocument/hover", { textDocument: { uri: "file:///bench/unopened.mission" }, position: { line: 0, character: 0 } });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * The server's CPU time so far in ms, its main thread apart from V8's helper threads (garbage collection, compiling),
 * read from Linux's /proc; undefined elsewhere. Wall time on a shared machine includes waiting to be scheduled, CPU
 * time does not: it says whether the server does more work than the baseline or only waits longer.
 */
function serverCpuMs() {
  try {
    const threads = readdirSync(`/proc/${child.pid}/task`).map((tid) => {
      return { main: Number(tid) === child.pid, ms: cpuSecondsOfStat(readFileSync(`/proc/${child.pid}/task/${tid}/stat`, "utf8")) * 1000 };
    });
    const sum = (list) => list.reduce((total, thread) => total + thread.ms, 0);
    return { main: sum(threads.filter((t) => t.main)), helpers: sum(threads.filter((t) => !t.main)) };
  } catch {
    return undefined;
  }
}

// Warm all up, then take turns so they share the machine's noise.
for (let i = 0; i < warmups; i++) {
  checkAlone();
  await editToDiagnostics();
  await emptyRoundTrip();
}
const cpuBefore = serverCpuMs();
const benchCpuBefore = process.cpuUsage();
checkCpuMs = 0;
const checkMs = [];
const editMs = [];
const emptyMs = [];
for (let i = 0; i < runs; i++) {
  checkMs.push(checkAlone());
  editMs.push(await editToDiagnostics());
  emptyMs.push(await emptyRoundTrip());
}

const cpuAfter = serverCpuMs();
const benchCpuMs = process.cpuUsage(benchCpuBefore).user / 1000;
const sum = (samples) => samples.reduce((total, ms) => total + ms, 0);

// Completion at the start of each task line (after `execute `) and each `on ` line, spread over the whole file.
const positions = lines.flatMap((line, index) => {
  const at = line.indexOf("execute ");
  return at >= 0 ? [{ line: index, character: at + "execute ".length }] : [];
});
const completionMs = [];
for (let i = 0; i < completions; i++) {
  const position = positions[Math.floor((i * positions.length) / completions)];
  const start = process.hrtime.bigint();
  await connection.sendRequest("textDocument/completion", { textDocument: { uri }, position });
  completionMs.push(Number(process.hrtime.bigint() - start) / 1e6);
}

await connection.sendRequest("shutdown");
await connection.sendNotification("exit");
connection.dispose();

printTable(`Language server on a ${lines.length}-line file (${text.length} bytes, ${openedDiagnostics} diagnostics), median of ${runs}`, [
  ["what", "ms"],
  ["parse() + check() in process (baseline)", fixed(median(checkMs))],
  ["didChange -> publishDiagnostics over stdio", fixed(median(editMs))],
  ["a request answered without work (the protocol alone)", fixed(median(emptyMs))],
]);
console.log(`  ratio: ${fixed(median(editMs) / median(checkMs))}x (target <= 2x); fastest against fastest: ${fixed(Math.min(...editMs) / Math.min(...checkMs))}x`);
// Means, since CPU time is only known in total (in 10 ms ticks, so over all ${runs} runs): per edit in the server,
// against per check here (this process's CPU over the loop also holds the client's side of each round trip).
if (cpuBefore !== undefined && cpuAfter !== undefined) {
  printTable(`CPU time, mean per edit over ${runs} (server: each edit and one empty request)`, [
    ["what", "ms"],
    ["server main thread", fixed((cpuAfter.main - cpuBefore.main) / runs)],
    ["server V8 helper threads (GC, compiling)", fixed((cpuAfter.helpers - cpuBefore.helpers) / runs)],
    ["this process (parse() + check() and the client)", fixed(benchCpuMs / runs)],
    ["this process in parse() + check() alone, all threads", fixed(checkCpuMs / runs)],
    ["parse() + check() wall time, mean", fixed(sum(checkMs) / runs)],
    ["didChange -> publishDiagnostics wall time, mean", fixed(sum(editMs) / runs)],
  ]);
  // The work apart from the waiting: what a loaded machine changes least.
  const serverCpu = cpuAfter.main - cpuBefore.main + cpuAfter.helpers - cpuBefore.helpers;
  console.log(`  CPU ratio: ${fixed(serverCpu / checkCpuMs)}x (the server's threads per edit and empty request, against this process's in parse() + check())`);
}
printTable(`Completion, ${completions} requests after \`execute \``, [
  ["what", "ms"],
  ["p50", fixed(median(completionMs))],
  ["p99", fixed(percentile(completionMs, 99))],
]);
