// How compile() scales with input size, on generated inputs of several
// shapes (the ones that once hid quadratic checks): ms per KB at growing
// sizes, and the growth of ms/KB from the smallest to the largest size. A
// linear (or n log n) pipeline keeps the growth near 1; a quadratic one
// multiplies it by the size ratio (16 here).
import { compile } from "../packages/compiler/dist/index.js";
import { fixed, flat, medianMsEach, printTable } from "./harness.mjs";

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

const rows = [["shape", ...SIZES_KB.map((kb) => `ms/KB at ${kb} KB`), `growth ${SIZES_KB[0]}→${SIZES_KB.at(-1)} KB`]];
let worstGrowth = 0;
let worstMsPerKb = 0;
for (const [shape, make] of Object.entries(SHAPES)) {
  const perKb = SIZES_KB.map((kb) => {
    const source = make(kb * 1024);
    const [ms] = medianMsEach([() => compile(source)], { runs: 3, warmup: 1 });
    return ms / (source.length / 1024);
  });
  const growth = perKb.at(-1) / perKb[0];
  worstGrowth = Math.max(worstGrowth, growth);
  worstMsPerKb = Math.max(worstMsPerKb, perKb.at(-1));
  rows.push([shape, ...perKb.map((v) => fixed(v, 3)), `${fixed(growth)}x`]);
}
printTable("compile() time per KB by input shape and size (median of 3 runs)", rows);
console.log(`  worst growth: ${fixed(worstGrowth)}x (target <= 2x: not quadratic, which would be ${SIZES_KB.at(-1) / SIZES_KB[0]}x)`);
console.log(`  worst ms/KB at ${SIZES_KB.at(-1)} KB: ${fixed(worstMsPerKb, 3)} (target <= 3)`);
