import { MiaError } from './errors';
import { check } from './validate';

/**
 * A seeded pseudo-random stream. Every sampling site of `@mia/*` (shuffling, partitions,
 * augmentation, initialisation, attack splits) draws from one of these, so the same seed gives the
 * same numbers on every machine.
 *
 * The generator is sfc32 (Chris Doty-Humphrey's Small Fast Counter, 128-bit state, passes
 * PractRand), seeded through splitmix32 from a 32-bit seed.
 */
export interface Random {
  /** The 32-bit seed this stream started from. */
  readonly seed: number;
  /** A uniform float in [0, 1) with 32 bits of resolution. */
  next(): number;
  /** A uniform unsigned 32-bit integer. */
  uint32(): number;
  /** A uniform integer in [0, n). */
  int(n: number): number;
  /** A normal variate (Box–Muller). */
  normal(mean?: number, std?: number): number;
  /** Shuffles `array` in place (Fisher–Yates) and returns it. */
  shuffle<T extends { length: number; [i: number]: unknown }>(array: T): T;
  /** A uniformly random permutation of `0..n-1`. */
  permutation(n: number): Int32Array;
  /** `k` distinct indices drawn uniformly from `0..n-1`, in random order. */
  sample(n: number, k: number): Int32Array;
  /** An independent stream derived from this stream's seed and `labels`; does not advance this stream. */
  fork(...labels: ReadonlyArray<string | number>): Random;
  /** The internal state, for checkpoints. */
  getState(): [number, number, number, number];
  /** Restores a state returned by {@link Random.getState}. */
  setState(state: readonly number[]): void;
}

/** splitmix32 step: a well-mixed 32-bit hash of `x`. */
function mix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** FNV-1a hash of a string to 32 bits. */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Derives a 32-bit seed from a base seed and labels, e.g. `deriveSeed(seed, 'shuffle', epoch)`.
 * Different labels give independent-looking seeds; the same labels give the same seed.
 */
export function deriveSeed(seed: number | string, ...labels: ReadonlyArray<string | number>): number {
  let h = typeof seed === 'string' ? hashString(seed) : mix32(seed >>> 0);
  for (const label of labels) {
    const part = typeof label === 'string' ? hashString(label) : mix32(label >>> 0) ^ mix32(Math.floor(label / 2 ** 32));
    h = mix32(h ^ part);
  }
  return h;
}

/** Draws a rejection loop may discard in a row: each is rejected with probability ≤ ½, so 64 in a row (p ≤ 2⁻⁶⁴) mean a stream that is not uniform. */
const MAX_REJECTIONS = 64;

const brokenStream = (fn: string, seed: number) =>
  new MiaError(`${fn}: ${MAX_REJECTIONS} draws in a row were rejected (each with probability ≤ ½): the stream of seed ${seed} does not draw uniformly`);

class Sfc32 implements Random {
  readonly seed: number;
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;
  private spare: number | undefined;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    this.a = mix32(this.seed);
    this.b = mix32(this.a);
    this.c = mix32(this.b);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  next(): number {
    return this.uint32() / 4294967296;
  }

  int(n: number): number {
    check(Number.isInteger(n) && n > 0 && n <= 2 ** 32, 'Random.int', 'n', 'an integer in [1, 2^32]', n);
    // Rejection sampling removes the modulo bias; limit ≥ 2^31, so each draw is rejected with probability ≤ ½.
    const limit = 4294967296 - (4294967296 % n);
    let x = this.uint32();
    for (let draws = 1; x >= limit; draws++) {
      if (draws === MAX_REJECTIONS) throw brokenStream('Random.int', this.seed);
      x = this.uint32();
    }
    return x % n;
  }

  normal(mean = 0, std = 1): number {
    if (this.spare !== undefined) {
      const z = this.spare;
      this.spare = undefined;
      return mean + std * z;
    }
    let u = this.next();
    for (let draws = 1; u === 0; draws++) {
      if (draws === MAX_REJECTIONS) throw brokenStream('Random.normal', this.seed);
      u = this.next();
    }
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return mean + std * r * Math.cos(2 * Math.PI * v);
  }

  shuffle<T extends { length: number; [i: number]: unknown }>(array: T): T {
    for (let i = array.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = array[i];
      array[i] = array[j];
      array[j] = tmp;
    }
    return array;
  }

  permutation(n: number): Int32Array {
    check(Number.isInteger(n) && n >= 0, 'Random.permutation', 'n', 'a non-negative integer', n);
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = i;
    return this.shuffle(out);
  }

  sample(n: number, k: number): Int32Array {
    check(Number.isInteger(k) && k >= 0 && k <= n, 'Random.sample', 'k', `an integer in [0, ${n}]`, k);
    return this.permutation(n).slice(0, k);
  }

  fork(...labels: ReadonlyArray<string | number>): Random {
    return new Sfc32(deriveSeed(this.seed, ...labels));
  }

  getState(): [number, number, number, number] {
    return [this.a, this.b, this.c, this.d];
  }

  setState(state: readonly number[]): void {
    check(state.length === 4 && state.every((v) => Number.isInteger(v)), 'Random.setState', 'state', 'four integers', state);
    [this.a, this.b, this.c, this.d] = state.map((v) => v | 0) as [number, number, number, number];
    this.spare = undefined;
  }
}

/**
 * Creates a seeded random stream.
 * @param seed - an integer (used modulo 2^32) or a string (hashed).
 * @example
 * const random = seededRandom(42);
 * const order = random.permutation(10);
 */
export function seededRandom(seed: number | string): Random {
  check((typeof seed === 'number' && Number.isInteger(seed)) || typeof seed === 'string', 'seededRandom', 'seed', 'an integer or a string', seed);
  return new Sfc32(typeof seed === 'string' ? deriveSeed(seed) : seed >>> 0);
}
