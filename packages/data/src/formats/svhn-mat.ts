import { InvalidDatasetError } from '@mia/core';
import { datasetHint, type DecodedImages } from './cifar-binary';
import { parseMat5 } from './mat5';

/**
 * Parses an SVHN cropped-digits file (`train_32x32.mat`, `test_32x32.mat`): `X` uint8
 * `[32, 32, 3, N]` column-major and `y` `[N, 1]` with labels 1..10, where 10 means the digit 0.
 * @returns NHWC pixels and labels in `[0, 10)` (label = digit).
 * @throws InvalidDatasetError when `X`/`y` are missing, have other shapes, or a label is outside 1..10.
 * @see http://ufldl.stanford.edu/housenumbers/ (format 2)
 */
export function parseSvhnMat(bytes: Uint8Array, file = 'SVHN .mat file', expectedCount?: number): DecodedImages {
  const fail = (problem: string): never => {
    throw new InvalidDatasetError(`SVHN reader: ${file}: ${problem}; ${datasetHint(file)}`);
  };
  const vars = parseMat5(bytes, file);
  const x = vars.get('X');
  const y = vars.get('y');
  if (x === undefined || y === undefined) return fail(`expected variables X and y, found [${[...vars.keys()].join(', ')}]`);
  const [h, w, c, n] = x.dims;
  if (x.dims.length !== 4 || h !== 32 || w !== 32 || c !== 3 || x.className !== 'uint8') {
    return fail(`X must be uint8 [32, 32, 3, N], got ${x.className} [${x.dims.join(', ')}]`);
  }
  if (y.data.length !== n) fail(`y must hold one label per image (${n}), got ${y.data.length}`);
  if (expectedCount !== undefined && n !== expectedCount) fail(`expected ${expectedCount} images, got ${n}`);
  const labels = new Int32Array(n!);
  for (let i = 0; i < n!; i++) {
    const label = y.data[i]!;
    if (!Number.isInteger(label) || label < 1 || label > 10) fail(`y[${i}] must be in 1..10, got ${label}`);
    labels[i] = label % 10;
  }
  // Column-major X[h, w, c, i] sits at h + 32·w + 1024·c + 3072·i; we store NHWC.
  const src = x.data;
  const pixels = new Uint8Array(n! * 3072);
  for (let i = 0; i < n!; i++) {
    const base = i * 3072;
    for (let row = 0; row < 32; row++) {
      for (let col = 0; col < 32; col++) {
        const dst = base + (row * 32 + col) * 3;
        const s = base + row + 32 * col;
        pixels[dst] = src[s]!;
        pixels[dst + 1] = src[s + 1024]!;
        pixels[dst + 2] = src[s + 2048]!;
      }
    }
  }
  return { pixels, labels };
}
