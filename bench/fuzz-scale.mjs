// How compile() scales with input size, on generated inputs of several
// shapes (the ones that once hid quadratic checks): ms per KB at growing
// sizes, and the growth of ms/KB from the smallest to the largest size. A
// linear (or n log n) pipeline keeps the growth near 1; a quadratic one
// multiplies it by the size ratio (16 here).
//
// Growth is judged on the process's CPU time (all its threads, the garbage
// collector's included), not wall time: on a machine shared with other
// work, wall time also counts the time slices other processes get, which
// varies from sample to sample far more than the compiler's own work (a
// "many tasks" wall-time growth of 2.81x was one such reading; its CPU time
// per KB is flat). Wall time is still printed at the largest size.
import { compile } from "../packages/compiler/dist/index.js";
import { fixed, flat, printTable } from "./harness.mjs";

const SIZES_KB = [64, 256, 1024];
const HEADER = "@temporal v4.6.2\n@anchor Z1\n\n";

/** A small seeded PRNG (mulberry32), so every run measures the same inputs. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Repeats `line(i)` until the text reaches `bytes`. */
function grow(bytes, head, line, tail = "") {
  const parts = [head];
  let size = head.length + tail.length;
  for (let i = 0; size < bytes; i++) {
    const text = line(i);
    parts.push(text);
    size += text.length;
  }
  parts.push(tail);
  return flat(parts.join(""));
}

const SHAPES = {
  // One mission, every window the cycle minus a small gap of its own: the open set has one piece per window.
  "many requires": (bytes) => {
    const count = Math.ceil(bytes / 40);
    const step = 350 / count;
    const degrees = (n) => Number(n.toFixed(6));
    return grow(bytes, `${HEADER}mission wide {\n`, (i) => `  require phase [${degrees((i + 1) * step)}, ${degrees(i * step + step / 2)}]\n`, "  on ALLOW { execute run }\n}\n");
  },
  "many missions": (bytes) =>
    grow(
      bytes,
      HEADER,
      (i) =>
        `mission job_${i} {\n  require phase [${(i * 7) % 360}, ${(i * 7 + 45) % 360}]\n  require carbon < ${100 + (i % 500)}\n  on ALLOW {\n    execute task_${i}\n    anchor TSAE -> clockchain\n  }\n}\n`,
    ),
  // Every fifth task repeats one already run: M503 warnings with notes.
  "many tasks": (bytes) => grow(bytes, `${HEADER}mission busy {\n  on ALLOW {\n`, (i) => `    execute task_${i % 5 === 4 ? i - 1 : i}\n`, "  }\n}\n"),
  // Blocks opened and never closed: the parser recovers at every level.
  "deep nesting": (bytes) => grow(bytes, HEADER, (i) => `mission open_${i} {\n  on ALLOW {\n    execute a_${i}\n  on DENY {\n`),
  // Fuzz: the language's own words and symbols in random order, with random numbers and names.
  "token soup": (bytes) => {
    const next = random(20);
    const words = [..."mission require phase carbon hs_bloch on ALLOW DENY execute anchor TSAE -> clockchain { } [ ] , < <= > >= @anchor @temporal".split(" "), "\n"];
    return grow(bytes, HEADER, () => {
      const roll = next();
      if (roll < 0.15) return `${Math.floor(next() * 1000)} `;
      if (roll < 0.25) return `name_${Math.floor(next() * 100)} `;
      return `${words[Math.floor(next() * words.length)]} `;
    });
  },
};

const RUNS = 5;
/** Each sample compiles this much input (the small sizes several times), so every size is timed over the same work and noise weighs alike. */
const SAMPLE_KB = SIZES_KB.at(-1);

/** Median CPU and wall ms of `fn` over RUNS runs after one warm-up, each from a collected heap (run.mjs passes --expose-gc). */
function medianCost(fn) {
  fn();
  const cpu = [];
  const wall = [];
  for (let i = 0; i < RUNS; i++) {
    globalThis.gc?.();
    const startCpu = process.cpuUsage();
    const startWall = performance.now();
    fn();
    wall.push(performance.now() - startWall);
    const used = process.cpuUsage(startCpu);
    cpu.push((used.user + used.system) / 1000);
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { cpu: median(cpu), wall: median(wall) };
}

const rows = [["shape", ...SIZES_KB.map((kb) => `CPU ms/KB at ${kb} KB`), `growth ${SIZES_KB[0]}→${SIZES_KB.at(-1)} KB`, `wall ms/KB at ${SIZES_KB.at(-1)} KB`]];
let worstGrowth = 0;
let worstMsPerKb = 0;
for (const [shape, make] of Object.entries(SHAPES)) {
  const costs = SIZES_KB.map((kb) => {
    const source = make(kb * 1024);
    const repeats = Math.ceil(SAMPLE_KB / kb);
    const { cpu, wall } = medianCost(() => {
      for (let i = 0; i < repeats; i++) compile(source);
    });
    const kbs = (repeats * source.length) / 1024;
    return { cpu: cpu / kbs, wall: wall / kbs };
  });
  const growth = costs.at(-1).cpu / costs[0].cpu;
  worstGrowth = Math.max(worstGrowth, growth);
  worstMsPerKb = Math.max(worstMsPerKb, costs.at(-1).cpu);
  rows.push([shape, ...costs.map((c) => fixed(c.cpu, 3)), `${fixed(growth)}x`, fixed(costs.at(-1).wall, 3)]);
}
printTable(`compile() CPU time per KB by input shape and size (median of ${RUNS} samples of ${SAMPLE_KB} KB of input each)`, rows);
console.log(`  worst growth: ${fixed(worstGrowth)}x (target <= 2x: not quadratic, which would be ${SIZES_KB.at(-1) / SIZES_KB[0]}x)`);
console.log(`  worst CPU ms/KB at ${SIZES_KB.at(-1)} KB: ${fixed(worstMsPerKb, 3)} (target <= 3)`);
