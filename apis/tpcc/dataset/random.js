// TPC-C's random functions (TPC-C Standard Specification 5.11, clauses 2.1.6 and 4.3.2):
// a seeded generator, uniform integers, NURand, last names, a-strings and n-strings. Plain
// JavaScript with no imports and no Node APIs, because the benchmark's k6 script imports it
// as well as the data set generator and the conformance module: the load, the suite and the
// client draw with the same functions.

/** Letters and digits: TPC-C's "alphanumeric" characters for random a-strings. */
export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';

/** Clause 4.3.2.3: the syllables of C_LAST, indexed by the digits of a number 0..999. */
export const SYLLABLES = Object.freeze(['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING']);

/** The last name of number n (0..999): its three digits' syllables, hundreds first. */
export function lastName(n) {
  return SYLLABLES[Math.floor(n / 100) % 10] + SYLLABLES[Math.floor(n / 10) % 10] + SYLLABLES[n % 10];
}

/** The NURand A of each drawn value (clause 2.1.6): C_LAST, C_ID, OL_I_ID. */
export const NURAND_A = Object.freeze({ lastName: 255, customerId: 1023, itemId: 8191 });

/**
 * Run-time C for C_LAST given the load-time one (clause 2.1.6.1): |C_RUN − C_LOAD| within
 * 65..119 and neither 96 nor 112, so the names drawn at run time are not those of the load.
 */
export function validRunC(cLoad, cRun) {
  const delta = Math.abs(cRun - cLoad);
  return delta >= 65 && delta <= 119 && delta !== 96 && delta !== 112;
}

/**
 * A deterministic generator: sfc32 (a 128-bit state small fast counter), its state
 * seeded through splitmix32 so that nearby seeds give unrelated streams.
 */
export class TpccRandom {
  // The state lives in a typed array: 32-bit values kept in plain fields would be boxed
  // numbers, and the generator runs some 50 million times per warehouse.
  #s = new Int32Array(4);

  constructor(seed) {
    let x = seed >>> 0;
    const next = () => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) | 0;
    };
    for (let i = 0; i < 4; i++) this.#s[i] = next();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** The next 32-bit unsigned integer. */
  uint32() {
    const s = this.#s;
    const a = s[0];
    const b = s[1];
    const c = s[2];
    const d = s[3];
    const t = (((a + b) | 0) + d) | 0;
    s[3] = (d + 1) | 0;
    s[0] = b ^ (b >>> 9);
    s[1] = (c + (c << 3)) | 0;
    s[2] = (((c << 21) | (c >>> 11)) + t) | 0;
    return t >>> 0;
  }

  /** A uniform integer in lo..hi, both included (TPC-C's random(x, y)). */
  int(lo, hi) {
    const span = hi - lo + 1;
    if (!(span >= 1 && span <= 0x100000000)) throw new RangeError(`bad range ${lo}..${hi}`);
    return lo + Math.floor((this.uint32() / 0x100000000) * span);
  }

  /** Clause 2.1.6: NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y − x + 1)) + x. */
  nurand(A, x, y, C) {
    return (((this.int(0, A) | this.int(x, y)) + C) % (y - x + 1)) + x;
  }

  /** `true` with probability percent/100 (a random 1..100 at most percent). */
  chance(percent) {
    return this.int(1, 100) <= percent;
  }

  // Character codes are written into one buffer and turned into a string at once: the
  // data set draws some 50 million characters, and a string grown a character at a time
  // costs several times more.
  #codes = new Uint16Array(512);

  #string(alphabet, length) {
    const codes = length <= this.#codes.length ? this.#codes : new Uint16Array(length);
    const n = alphabet.length;
    for (let i = 0; i < length; i++) codes[i] = alphabet.charCodeAt(Math.floor((this.uint32() / 0x100000000) * n));
    return String.fromCharCode.apply(null, codes.subarray(0, length));
  }

  /** Clause 4.3.2.2: a random a-string of min..max alphanumeric characters. */
  aString(min, max) {
    return this.#string(ALPHANUMERIC, this.int(min, max));
  }

  /** A random n-string of min..max digits. */
  nString(min, max) {
    return this.#string(DIGITS, this.int(min, max));
  }

  /** `length` random upper-case letters (W_STATE, D_STATE, C_STATE). */
  letters(length) {
    return this.#string(UPPER, length);
  }

  /** Clause 4.3.3.1's I_DATA and S_DATA: an a-string of min..max; in 10% of rows "ORIGINAL" at a random position. */
  data(min, max) {
    const s = this.aString(min, max);
    if (!this.chance(10)) return s;
    const at = this.int(0, s.length - 8);
    return s.slice(0, at) + 'ORIGINAL' + s.slice(at + 8);
  }

  /** W_ZIP, D_ZIP, C_ZIP (clause 4.3.2.7): four random digits and "11111". */
  zip() {
    return this.#string(DIGITS, 4) + '11111';
  }

  /** A random permutation of 1..n (Fisher–Yates). */
  permutation(n) {
    const p = Array.from({ length: n }, (_, i) => i + 1);
    for (let i = n - 1; i > 0; i--) {
      const j = this.int(0, i);
      const t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }
}
