/**
 * A state vector of n qubits over two Float64Arrays (real and imaginary parts
 * split, so every gate is a tight loop over plain doubles with no allocation
 * and no closure per amplitude). Amplitude index bit k is qubit k. Gates act
 * in place; single-qubit gates walk the state in pairs (i, i + 2^k).
 */
/** 2^12 amplitudes, 64 KiB of doubles: a chunk that stays in a core's cache while several gates pass over it. */
const CACHE_BLOCK_QUBITS = 12;

export class StateVector {
  readonly qubits: number;
  readonly re: Float64Array;
  readonly im: Float64Array;

  /** |0...0>. */
  constructor(qubits: number) {
    this.qubits = qubits;
    this.re = new Float64Array(2 ** qubits);
    this.im = new Float64Array(2 ** qubits);
    this.re[0] = 1;
  }

  /**
   * The general single-qubit gate [[a, b], [c, d]] (complex entries as
   * real/imaginary pairs) on qubit k: (x0, x1) -> (a x0 + b x1, c x0 + d x1).
   * Only amplitudes from..to-1 when given (a range aligned to 2^(k+1)).
   */
  applyMatrix(k: number, ar: number, ai: number, br: number, bi: number, cr: number, ci: number, dr: number, di: number, from = 0, to = this.re.length): void {
    const re = this.re;
    const im = this.im;
    const stride = 1 << k;
    for (let block = from; block < to; block += stride << 1) {
      const end = block + stride;
      for (let i = block; i < end; i++) {
        const j = i + stride;
        const x0r = re[i]!;
        const x0i = im[i]!;
        const x1r = re[j]!;
        const x1i = im[j]!;
        re[i] = ar * x0r - ai * x0i + br * x1r - bi * x1i;
        im[i] = ar * x0i + ai * x0r + br * x1i + bi * x1r;
        re[j] = cr * x0r - ci * x0i + dr * x1r - di * x1i;
        im[j] = cr * x0i + ci * x0r + dr * x1i + di * x1r;
      }
    }
  }

  h(k: number): void {
    const s = Math.SQRT1_2;
    this.applyMatrix(k, s, 0, s, 0, s, 0, -s, 0);
  }

  x(k: number): void {
    const { re, im } = this;
    const size = re.length;
    const stride = 1 << k;
    for (let block = 0; block < size; block += stride << 1) {
      for (let i = block; i < block + stride; i++) swap(re, im, i, i + stride);
    }
  }

  /** RX(theta) = exp(-i theta X / 2) = [[cos, -i sin], [-i sin, cos]] of theta / 2. */
  rx(k: number, theta: number): void {
    const c = Math.cos(theta / 2);
    const s = Math.sin(theta / 2);
    this.applyMatrix(k, c, 0, 0, -s, 0, -s, c, 0);
  }

  /**
   * RX(theta) on every qubit: the QAOA mixer. The low qubits go chunk by
   * chunk, each chunk staying in cache for all of them, so they cost one pass
   * over memory instead of one each; the high qubits take a pass per pair.
   */
  rxAll(theta: number): void {
    const c = Math.cos(theta / 2);
    const s = Math.sin(theta / 2);
    const size = this.re.length;
    const low = Math.min(this.qubits, CACHE_BLOCK_QUBITS);
    const chunk = 2 ** low;
    for (let from = 0; from < size; from += chunk) {
      for (let k = 0; k < low; k++) this.applyMatrix(k, c, 0, 0, -s, 0, -s, c, 0, from, from + chunk);
    }
    let k = low;
    for (; k + 1 < this.qubits; k += 2) this.rxPair(k, k + 1, c, s);
    if (k < this.qubits) this.applyMatrix(k, c, 0, 0, -s, 0, -s, c, 0);
  }

  /**
   * RX(theta) (x) RX(theta) on qubits a < b in one pass over memory instead
   * of two: each group of four amplitudes (bits a, b in 00, 01, 10, 11) is
   * read once. With RX = [[c, -is], [-is, c]], amplitude y_uv collects c^2
   * from x_uv, -isc from the two neighbours differing in one bit and -s^2
   * from the one differing in both.
   */
  private rxPair(a: number, b: number, c: number, s: number): void {
    const re = this.re;
    const im = this.im;
    const bitA = 1 << a;
    const bitB = 1 << b;
    const cc = c * c;
    const sc = s * c;
    const ss = s * s;
    for (let high = 0; high < re.length; high += bitB << 1) {
      for (let middle = high; middle < high + bitB; middle += bitA << 1) {
        for (let i00 = middle; i00 < middle + bitA; i00++) {
          const i01 = i00 | bitA;
          const i10 = i00 | bitB;
          const i11 = i01 | bitB;
          const r00 = re[i00]!;
          const m00 = im[i00]!;
          const r01 = re[i01]!;
          const m01 = im[i01]!;
          const r10 = re[i10]!;
          const m10 = im[i10]!;
          const r11 = re[i11]!;
          const m11 = im[i11]!;
          // -isc (x + y) adds sc * Im to the real part and -sc * Re to the imaginary part.
          re[i00] = cc * r00 - ss * r11 + sc * (m01 + m10);
          im[i00] = cc * m00 - ss * m11 - sc * (r01 + r10);
          re[i01] = cc * r01 - ss * r10 + sc * (m00 + m11);
          im[i01] = cc * m01 - ss * m10 - sc * (r00 + r11);
          re[i10] = cc * r10 - ss * r01 + sc * (m00 + m11);
          im[i10] = cc * m10 - ss * m01 - sc * (r00 + r11);
          re[i11] = cc * r11 - ss * r00 + sc * (m01 + m10);
          im[i11] = cc * m11 - ss * m00 - sc * (r01 + r10);
        }
      }
    }
  }

  /** Multiplies amplitude x by e^{-i angle diagonal[x]}: e^{-i angle D} for a diagonal D in one pass. */
  applyDiagonalPhase(diagonal: Float64Array, angle: number): void {
    const re = this.re;
    const im = this.im;
    for (let x = 0; x < re.length; x++) {
      const phase = -angle * diagonal[x]!;
      const c = Math.cos(phase);
      const s = Math.sin(phase);
      const r = re[x]!;
      const m = im[x]!;
      re[x] = c * r - s * m;
      im[x] = c * m + s * r;
    }
  }

  /** sum_x |psi_x|^2 diagonal[x]: the expectation of a diagonal observable, without allocating the probabilities. */
  expectation(diagonal: Float64Array): number {
    const re = this.re;
    const im = this.im;
    let sum = 0;
    for (let x = 0; x < re.length; x++) sum += (re[x]! * re[x]! + im[x]! * im[x]!) * diagonal[x]!;
    return sum;
  }

  /** RY(theta) = exp(-i theta Y / 2) = [[cos, -sin], [sin, cos]] of theta / 2. */
  ry(k: number, theta: number): void {
    const c = Math.cos(theta / 2);
    const s = Math.sin(theta / 2);
    this.applyMatrix(k, c, 0, -s, 0, s, 0, c, 0);
  }

  /** RZ(theta) = exp(-i theta Z / 2) = diag(e^{-i theta/2}, e^{i theta/2}): a diagonal, so one multiply per amplitude. */
  rz(k: number, theta: number): void {
    const c = Math.cos(theta / 2);
    const s = Math.sin(theta / 2);
    const re = this.re;
    const im = this.im;
    const stride = 1 << k;
    for (let block = 0; block < re.length; block += stride << 1) {
      for (let i = block; i < block + stride; i++) {
        // |0>: multiply by c - i s; |1>: by c + i s.
        const r0 = re[i]!;
        const m0 = im[i]!;
        re[i] = c * r0 + s * m0;
        im[i] = c * m0 - s * r0;
        const j = i + stride;
        const r1 = re[j]!;
        const m1 = im[j]!;
        re[j] = c * r1 - s * m1;
        im[j] = c * m1 + s * r1;
      }
    }
  }

  /** RZZ(theta) = exp(-i theta Z_a Z_b / 2): phase e^{-i theta/2} where bits a and b agree, e^{+i theta/2} where they differ. */
  rzz(a: number, b: number, theta: number): void {
    const c = Math.cos(theta / 2);
    const s = Math.sin(theta / 2);
    const re = this.re;
    const im = this.im;
    for (let i = 0; i < re.length; i++) {
      // sign = +1 when the bits differ (phase e^{+i theta/2}), -1 when they agree.
      const sign = (((i >>> a) ^ (i >>> b)) & 1) * 2 - 1;
      const r = re[i]!;
      const m = im[i]!;
      const ss = sign * s;
      re[i] = c * r - ss * m;
      im[i] = c * m + ss * r;
    }
  }

  cnot(control: number, target: number): void {
    const { re, im } = this;
    const size = re.length;
    const controlMask = 1 << control;
    const targetMask = 1 << target;
    for (let i = 0; i < size; i++) {
      // Visit each swapped pair once: from its member with the target bit clear.
      if ((i & controlMask) !== 0 && (i & targetMask) === 0) swap(re, im, i, i | targetMask);
    }
  }

  /** |amplitude|^2 of every basis state. */
  probabilities(): Float64Array {
    const result = new Float64Array(this.re.length);
    for (let i = 0; i < result.length; i++) result[i] = this.re[i]! * this.re[i]! + this.im[i]! * this.im[i]!;
    return result;
  }
}

/** Exchanges amplitudes i and j: small enough for the compiler to inline into the gate loops. */
function swap(re: Float64Array, im: Float64Array, i: number, j: number): void {
  const r = re[i]!;
  const m = im[i]!;
  re[i] = re[j]!;
  im[i] = im[j]!;
  re[j] = r;
  im[j] = m;
}
