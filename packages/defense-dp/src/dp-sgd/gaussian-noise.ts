import { InvalidArgumentError, seededRandom } from '@mia/core';

// Marsaglia and Tsang's 128-layer ziggurat for N(0, 1) (J. Stat. Softw. 5(8), 2000, "The Ziggurat
// Method for Generating Random Variables"), with the layer index and the value taken from separate
// bits of one 32-bit draw (Doornik 2005, "An Improved Ziggurat Method to Generate Normal Random
// Samples": the original reuses the index bits in the value, which correlates them).
const R = 3.442619855899; // start of the tail
const V = 9.91256303526217e-3; // area of each layer
const SCALE = 2 ** 24; // 25-bit signed values: 24 bits of magnitude, a float32 mantissa
const kn = new Float64Array(128);
const wn = new Float64Array(128);
const fn = new Float64Array(128);
{
  let dn = R;
  let tn = dn;
  const q = V / Math.exp(-0.5 * dn * dn);
  kn[0] = Math.floor((dn / q) * SCALE);
  kn[1] = 0;
  wn[0] = q / SCALE;
  wn[127] = dn / SCALE;
  fn[0] = 1;
  fn[127] = Math.exp(-0.5 * dn * dn);
  for (let i = 126; i >= 1; i--) {
    dn = Math.sqrt(-2 * Math.log(V / dn + Math.exp(-0.5 * dn * dn)));
    kn[i + 1] = Math.floor((dn / tn) * SCALE);
    tn = dn;
    fn[i] = Math.exp(-0.5 * dn * dn);
    wn[i] = dn / SCALE;
  }
}

/** A value's rejection loops end with probability > ½ per round (the wedge and the tail alike); this many rounds mean a broken stream. */
const MAX_ROUNDS = 1000;

const brokenStream = (seed: number) =>
  new InvalidArgumentError(
    `gaussianNoise: ${MAX_ROUNDS} ziggurat rounds in a row were rejected (each is accepted with probability > ½): the stream of seed ${seed} is not uniform`,
  );

/**
 * `size` independent N(0, std²) values from the stream seeded by `seed`, as float32: DP-SGD's noise.
 * About ten times faster than Box–Muller (one 32-bit draw and one multiply for 98.8 % of the values,
 * no logarithm or trigonometry), which matters because a step draws one value per parameter. The
 * same seed gives the same values everywhere (plain JavaScript on `@mia/core`'s sfc32 stream).
 * @internal
 * @see Marsaglia & Tsang 2000 (J. Stat. Softw. 5(8)); Doornik 2005 (separate index and value bits)
 */
export function gaussianNoise(size: number, std: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  const next = (): number => random.uint32();
  // In (0, 1): both logarithms of the tail stay finite.
  const open = () => (next() + 0.5) / 4294967296;
  const out = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    let u = next();
    let hz = (u | 0) >> 7;
    let iz = u & 127;
    if (Math.abs(hz) < kn[iz]!) {
      out[i] = std * hz * wn[iz]!;
      continue;
    }
    for (let round = 1; ; round++) {
      if (round > MAX_ROUNDS) throw brokenStream(seed);
      if (iz === 0) {
        let x: number;
        let y: number;
        let tries = 0;
        do {
          if (++tries > MAX_ROUNDS) throw brokenStream(seed);
          x = -Math.log(open()) / R;
          y = -Math.log(open());
        } while (y + y < x * x);
        out[i] = std * (hz > 0 ? R + x : -R - x);
        break;
      }
      const x = hz * wn[iz]!;
      if (fn[iz]! + open() * (fn[iz - 1]! - fn[iz]!) < Math.exp(-0.5 * x * x)) {
        out[i] = std * x;
        break;
      }
      u = next();
      hz = (u | 0) >> 7;
      iz = u & 127;
      if (Math.abs(hz) < kn[iz]!) {
        out[i] = std * hz * wn[iz]!;
        break;
      }
    }
  }
  return out;
}
