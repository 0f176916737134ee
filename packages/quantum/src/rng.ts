/**
 * Seeded randomness for everything random in the package (shots, trials):
 * xoshiro128** (Blackman and Vigna), a small, fast 32-bit generator with a
 * 128-bit state, seeded through splitmix32 so that nearby seeds give
 * unrelated streams. Math.random is never used: same seed, same result.
 */
export type Random = () => number;

/** A generator of uniform floats in [0, 1) from an integer seed (any number; its low 32 bits and the rest are mixed in). */
export function seededRandom(seed: number): Random {
  let mix = (Math.trunc(seed) ^ Math.trunc(seed / 0x1_0000_0000)) >>> 0;
  const splitmix32 = (): number => {
    mix = (mix + 0x9e3779b9) >>> 0;
    let z = mix;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix32();
  let b = splitmix32();
  let c = splitmix32();
  let d = splitmix32();
  return () => {
    const result = Math.imul(rotateLeft(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotateLeft(d, 11);
    return result / 0x1_0000_0000;
  };
}

function rotateLeft(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
