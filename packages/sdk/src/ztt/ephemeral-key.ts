/**
 * Whether 32 bytes are an Ed25519 public key an authority may certify (RFC 8032, 5.1.3): a canonical encoding of a
 * point on the curve, and not one of the eight points of small order. WebCrypto imports any 32 bytes as a key, so
 * this is checked here, with BigInt arithmetic modulo p, platform-free (a browser certifies nothing, but the
 * service does, and the check belongs to the ZTT core).
 *
 * Why small order is refused: such a key (the all-zero key is one) verifies signatures forged with no private key
 * (S = 0 and R of small order: for every message under the identity key, for about one in eight under the others),
 * so a certificate for one would let anybody sign in its window.
 *
 * Points of mixed order (a large-order point plus a small-order one) are accepted, as libsodium's check accepts
 * them: such a key still has a private scalar only its maker knows, and forging under it needs that scalar like any
 * other; the small component only lets the holder make signatures that cofactored and cofactorless verifiers judge
 * differently, which hurts nobody but the holder, since each key signs only its own bundles.
 */

const P = 2n ** 255n - 19n;
/** d = -121665 / 121666 mod p, the curve constant. */
const D = mod(-121665n * inverse(121666n));
/** A square root of -1 mod p: 2^((p - 1) / 4). */
const SQRT_M1 = power(2n, (P - 1n) / 4n);

/** Extended coordinates (X : Y : Z : T) with x = X/Z, y = Y/Z, xy = T/Z. */
interface Point {
  readonly x: bigint;
  readonly y: bigint;
  readonly z: bigint;
  readonly t: bigint;
}

/** Why `raw` cannot be certified, or undefined when it can. */
export function ephemeralKeyProblem(raw: Uint8Array): string | undefined {
  if (raw.length !== 32) return `is ${raw.length} bytes, not 32`;
  const point = decode(raw);
  if (point === undefined) return "is not the canonical encoding of a point on Ed25519";
  if (isIdentity(double(double(double(point))))) return "is a point of small order (such as the all-zero key), which would verify signatures made without a private key";
  return undefined;
}

/** RFC 8032 5.1.3: y little-endian with the sign of x in the top bit; undefined when y >= p or x^2 has no root. */
function decode(raw: Uint8Array): Point | undefined {
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(raw[i] as number);
  const sign = y >> 255n;
  y &= (1n << 255n) - 1n;
  if (y >= P) return undefined;
  const u = mod(y * y - 1n);
  const v = mod(D * y * y + 1n);
  let x = mod(u * power(v, 3n) * power(u * power(v, 7n), (P - 5n) / 8n));
  const vx2 = mod(v * x * x);
  if (vx2 === mod(-u)) x = mod(x * SQRT_M1);
  else if (vx2 !== u) return undefined;
  if (x === 0n && sign === 1n) return undefined;
  if ((x & 1n) !== sign) x = P - x;
  return { x, y, z: 1n, t: mod(x * y) };
}

/** Doubling in extended coordinates (RFC 8032 5.1.4, "dbl-2008-hwcd"). */
function double({ x, y, z }: Point): Point {
  const a = mod(x * x);
  const b = mod(y * y);
  const c = mod(2n * z * z);
  const h = mod(a + b);
  const e = mod(h - mod((x + y) * (x + y)));
  const g = mod(a - b);
  const f = mod(c + g);
  return { x: mod(e * f), y: mod(g * h), z: mod(f * g), t: mod(e * h) };
}

function isIdentity({ x, y, z }: Point): boolean {
  return x === 0n && y === z;
}

function mod(a: bigint): bigint {
  const r = a % P;
  return r < 0n ? r + P : r;
}

function power(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = mod(result * b);
    b = mod(b * b);
  }
  return result;
}

function inverse(a: bigint): bigint {
  return power(a, P - 2n);
}
