// Shared helpers for the benchmarks: timing by median of repeated runs, and a
// plain table printer. Benchmarks compare against a baseline measured in the
// same run, so figures from different machines are comparable as ratios.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";

/**
 * Median wall time in ms of each function over `runs` runs, after `warmup`
 * unmeasured runs. The functions take turns, so they share the machine's
 * noise, and each sample starts from a collected heap (run.mjs passes
 * --expose-gc), so no sample pays for the garbage of the one before.
 */
export function medianMsEach(fns, { runs = 9, warmup = 2 } = {}) {
  for (let i = 0; i < warmup; i++) for (const fn of fns) fn();
  const samples = fns.map(() => []);
  for (let i = 0; i < runs; i++) {
    fns.forEach((fn, k) => {
      globalThis.gc?.();
      const start = process.hrtime.bigint();
      fn();
      samples[k].push(Number(process.hrtime.bigint() - start) / 1e6);
    });
  }
  return samples.map((times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)]);
}

/** Median wall time in ms of running `command args` as a process, alternating with the others to share noise. */
export function medianProcessMs(commands, { runs = 15, warmup = 2 } = {}) {
  const samples = commands.map(() => []);
  for (let i = 0; i < warmup + runs; i++) {
    commands.forEach(([command, args], k) => {
      const start = process.hrtime.bigint();
      const result = spawnSync(command, args, { stdio: "ignore" });
      if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${result.status}`);
      if (i >= warmup) samples[k].push(Number(process.hrtime.bigint() - start) / 1e6);
    });
  }
  return samples.map((times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)]);
}

/**
 * Runs `step` in `callers` concurrent loops until `seconds` have passed;
 * resolves with how many steps finished and the seconds they took.
 */
export async function concurrentlyFor(callers, seconds, step) {
  let count = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < deadline) {
        await step(count++);
      }
    }),
  );
  return { count, seconds: (performance.now() - start) / 1000 };
}

export function printTable(title, rows) {
  console.log(`\n${title}`);
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  for (const row of rows) console.log(`  ${row.map((cell, c) => String(cell).padEnd(widths[c])).join("  ")}`);
}

export const fixed = (n, digits = 2) => n.toFixed(digits);

/** A string with a flat representation, so no benchmark pays for a rope built by concatenation. */
export const flat = (text) => Buffer.from(text).toString();

/** A realistic mission file of at least `bytes` characters: many missions with every kind of requirement. */
export function missionSource(bytes) {
  const parts = ["@temporal v4.6.2\n@anchor Z1\n\n"];
  let size = parts[0].length;
  for (let i = 0; size < bytes; i++) {
    const text = `// mission ${i}: nightly work in a wrapping window
mission job_${i} {
  require phase [${(i * 7) % 360}, ${(i * 7 + 45) % 360}]
  require carbon < ${100 + (i % 500)}
  require hs_bloch >= 0.${i % 10}
  on ALLOW {
    execute task_${i}_prepare
    execute task_${i}_run
    anchor TSAE -> clockchain
  }
  on DENY { anchor TSAE -> clockchain }
}

`;
    parts.push(text);
    size += text.length;
  }
  return flat(parts.join(""));
}

/**
 * CPU seconds (user + system) in a Linux `/proc/<pid>/stat` or `/proc/<pid>/task/<tid>/stat` text: utime and stime
 * are the 12th and 13th fields after the command name (which may hold spaces and parentheses), in clock ticks
 * (USER_HZ, 100 on Linux).
 */
export function cpuSecondsOfStat(stat) {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The line a server under test prints on stdout once it accepts connections. */
const LISTENING = /^listening on (https?:\/\/\S+)$/m;

/**
 * Starts `node args...` and resolves once it prints `listening on <url>`. With `stdoutFile`, the child's standard output
 * goes to that file (created or truncated), polled for that line: this process never reads what follows it.
 */
export async function startChild(args, { stdoutFile } = {}) {
  const fd = stdoutFile === undefined ? undefined : openSync(stdoutFile, "w");
  const child = spawn(process.execPath, args, { stdio: ["ignore", fd ?? "pipe", "inherit"] });
  if (fd !== undefined) closeSync(fd); // the child holds its own copy
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const url = await new Promise((resolve, reject) => {
    exited.then((code) => reject(new Error(`${args.join(" ")} exited ${code} before listening`)));
    if (stdoutFile !== undefined) {
      const poll = setInterval(() => {
        const match = LISTENING.exec(readFileSync(stdoutFile, "utf8"));
        if (match === null) return;
        clearInterval(poll);
        resolve(match[1]);
      }, 20);
      exited.then(() => clearInterval(poll));
      return;
    }
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      const match = LISTENING.exec(line);
      if (!match) return;
      // Whatever follows on stdout is drained unread, so this process does not pay for splitting it.
      lines.close();
      child.stdout.resume();
      resolve(match[1]);
    });
  });
  return {
    url,
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
