import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '@mia/core';
import { applyCropFlip, cropFlipQueries, horizontalFlip, randomCropFlip } from './crop-flip';
import { translateImages, translationQueries } from './translate';
import { rotateImages, rotationQueries } from './rotate';
import { flipFeatures } from './flip-features';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** Two random 32×32×3 images (values in [0, 1)), seeded. */
function images(seed = 1, n = 2): tf.Tensor4D {
  const r = seededRandom(seed);
  return tf.tensor4d(
    Float32Array.from({ length: n * 3072 }, () => r.next()),
    [n, 32, 32, 3],
  );
}

const values = (t: tf.Tensor): number[] => Array.from(t.dataSync());

function expectNoLeak(run: () => void): void {
  run(); // warm-up (backend-internal tensors)
  const before = tf.memory().numTensors;
  run();
  expect(tf.memory().numTensors).toBe(before);
}

describe('crop × flip', () => {
  it('flipping twice is the identity, and a flip mirrors columns', () => {
    const x = images();
    const once = horizontalFlip(x);
    const twice = horizontalFlip(once);
    expect(values(twice)).toEqual(values(x));
    // pixel (0, 0, row 5, col 0) of the flip = pixel (0, row 5, col 31) of x
    expect(once.dataSync()[(5 * 32 + 0) * 3]).toBe(x.dataSync()[(5 * 32 + 31) * 3]);
    tf.dispose([x, once, twice]);
  });

  it('the centre crop (4, 4) without flip is the identity; offset (0, 0) shifts in zero padding', () => {
    const x = images();
    const centre = applyCropFlip(x, { dy: 4, dx: 4, flip: false });
    expect(values(centre)).toEqual(values(x));
    const corner = applyCropFlip(x, { dy: 0, dx: 0, flip: false }, 4, -1);
    const v = corner.dataSync();
    expect(v[0]).toBe(-1); // padded region
    expect(v[(4 * 32 + 4) * 3]).toBe(x.dataSync()[0]); // output (4, 4) = input (0, 0)
    tf.dispose([x, centre, corner]);
  });

  it('gives 162 distinct queries (9 × 9 offsets × flip)', () => {
    const queries = cropFlipQueries();
    expect(queries).toHaveLength(162);
    const x = images(3, 1);
    const seen = new Set<string>();
    for (const q of queries) {
      const out = applyCropFlip(x, q);
      seen.add(Array.from(out.dataSync().subarray(0, 400), (v) => v.toFixed(6)).join(','));
      out.dispose();
    }
    expect(seen.size).toBe(162);
    x.dispose();
  });

  it('random crop + flip is seeded and every image is one of the 162 views', () => {
    const x = images(4, 3);
    const a = randomCropFlip(x, seededRandom(9));
    const b = randomCropFlip(x, seededRandom(9));
    const c = randomCropFlip(x, seededRandom(10));
    expect(values(a)).toEqual(values(b));
    expect(values(a)).not.toEqual(values(c));
    const first = tf.slice(x, [0, 0, 0, 0], [1, 32, 32, 3]);
    const target = tf.tidy(() => values(tf.slice(a, [0, 0, 0, 0], [1, 32, 32, 3])));
    const matches = cropFlipQueries().filter((q) => {
      const out = applyCropFlip(first, q);
      const same = values(out).every((v, i) => v === target[i]);
      out.dispose();
      return same;
    });
    expect(matches.length).toBe(1);
    tf.dispose([a, b, c, first]);
    x.dispose();
  });
});

describe('translation and rotation', () => {
  it('translation by (0, 0) is the identity; (1, −2) moves content down 1, left 2 with zero fill', () => {
    const x = images();
    tf.tidy(() => {
      expect(values(translateImages(x, 0, 0))).toEqual(values(x));
    });
    const t = translateImages(x, 1, -2);
    const v = t.dataSync();
    const src = x.dataSync();
    expect(v[(3 * 32 + 5) * 3 + 1]).toBe(src[(2 * 32 + 7) * 3 + 1]); // out (3, 5) = in (2, 7)
    expect(v[(0 * 32 + 5) * 3]).toBe(0); // top row uncovered
    expect(v[(10 * 32 + 31) * 3]).toBe(0); // right columns uncovered
    expect(translationQueries(1)).toEqual([
      [-1, 0],
      [0, -1],
      [0, 1],
      [1, 0],
      [0, 0],
    ]);
    expect(translationQueries(2)).toHaveLength(9);
    tf.dispose([x, t]);
  });

  it('rotation by 0° is the identity; 90° on a 4×4 image turns it counter-clockwise', () => {
    const x = images();
    tf.tidy(() => {
      expect(values(rotateImages(x, 0))).toEqual(values(x));
    });
    const grid = tf.tensor4d(
      Float32Array.from({ length: 16 }, (_, i) => i),
      [1, 4, 4, 1],
    );
    const rotated = rotateImages(grid, 90);
    const r = rotated.dataSync();
    // Counter-clockwise as displayed: out[row][col] = in[col][3 − row] (hand-derived for a 4×4 grid).
    for (let row = 0; row < 4; row++) for (let col = 0; col < 4; col++) expect(r[row * 4 + col]).toBeCloseTo(col * 4 + (3 - row), 4);
    // 45° on a constant image: the centre stays 1, corners fall outside (bilinear with zero fill).
    const ones = tf.ones([1, 8, 8, 1]);
    const rotatedOnes = rotateImages(ones, 45);
    const rot = rotatedOnes.dataSync();
    expect(rot[3 * 8 + 3]).toBeCloseTo(1, 5);
    expect(rot[0]).toBe(0);
    expect(rotationQueries(4)).toEqual([-4, 0, 4]);
    tf.dispose([x, grid, ones, rotated, rotatedOnes]);
  });

  it('rejects inputs that are not image batches', () => {
    const flat = tf.zeros([2, 5]);
    expect(() => translateImages(flat, 1, 0)).toThrow(/translateImages: x must be a batch of images \[b, h, w, c\], got shape \[2, 5\]/);
    expect(() => applyCropFlip(tf.zeros([1, 4, 4, 1]), { dy: 9, dx: 0, flip: false })).toThrow(/view\.dy must be a number in \[0, 8\], got 9/);
    tf.dispose(flat);
  });
});

describe('flipFeatures', () => {
  it('flips exactly m distinct features per row, seeded', () => {
    const x = tf.tensor2d(
      Float32Array.from({ length: 4 * 50 }, (_, i) => (i % 3 === 0 ? 1 : 0)),
      [4, 50],
    );
    const a = flipFeatures(x, 7, seededRandom(1));
    const b = flipFeatures(x, 7, seededRandom(1));
    expect(values(a)).toEqual(values(b));
    tf.tidy(() => {
      expect(values(a)).not.toEqual(values(flipFeatures(x, 7, seededRandom(2))));
      expect(values(flipFeatures(x, 0, seededRandom(1)))).toEqual(values(x));
    });
    const diff = values(a).map((v, i) => Math.abs(v - x.dataSync()[i]!));
    for (let row = 0; row < 4; row++) expect(diff.slice(row * 50, row * 50 + 50).reduce((s, d) => s + d, 0)).toBe(7);
    expect(values(a).every((v) => v === 0 || v === 1)).toBe(true);
    expect(() => flipFeatures(x, 51, seededRandom(1))).toThrow(/m must be an integer in \[0, 50\], got 51/);
    tf.dispose([x, a, b]);
  });
});

describe('no tensor leaks', () => {
  it('every augmentation disposes its intermediates', () => {
    const x = images(5, 2);
    const bits = tf.zeros([3, 10]);
    expectNoLeak(() => horizontalFlip(x).dispose());
    expectNoLeak(() => applyCropFlip(x, { dy: 2, dx: 7, flip: true }).dispose());
    expectNoLeak(() => randomCropFlip(x, seededRandom(0)).dispose());
    expectNoLeak(() => translateImages(x, -1, 1).dispose());
    expectNoLeak(() => rotateImages(x, 4).dispose());
    expectNoLeak(() => flipFeatures(bits, 2, seededRandom(0)).dispose());
    tf.dispose([x, bits]);
  });
});
