import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../test-utils/temp-dir';
import { parseMat5 } from './mat5';
import { parseSvhnMat } from './svhn-mat';
import { writeMat5 } from '../test-utils/mat5-writer';
import { loadDataset } from '../datasets/load-dataset';

afterAll(removeTempDirs);

/** SVHN-shaped fixture: X[h, w, c, i] = (h + 2w + 5c + 11i) mod 256, column-major. */
function svhnFixture(labels: readonly number[], compress: boolean): Uint8Array {
  const n = labels.length;
  const x = new Uint8Array(32 * 32 * 3 * n);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < 3; c++)
      for (let w = 0; w < 32; w++)
        for (let h = 0; h < 32; h++) {
          x[h + 32 * w + 1024 * c + 3072 * i] = (h + 2 * w + 5 * c + 11 * i) % 256;
        }
  return writeMat5(
    [
      { name: 'X', dims: [32, 32, 3, n], data: x },
      { name: 'y', dims: [n, 1], data: Float64Array.from(labels) },
    ],
    compress,
  );
}

describe('parseMat5', () => {
  it('reads uint8 and double variables, compressed or not', () => {
    for (const compress of [false, true]) {
      const vars = parseMat5(
        writeMat5(
          [
            { name: 'a', dims: [2, 3], data: Uint8Array.from([1, 2, 3, 4, 5, 6]) },
            { name: 'b', dims: [1, 2], data: Float64Array.from([0.5, -3]) },
          ],
          compress,
        ),
      );
      expect(vars.get('a')).toMatchObject({ className: 'uint8', dims: [2, 3] });
      expect(Array.from(vars.get('a')!.data)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(Array.from(vars.get('b')!.data)).toEqual([0.5, -3]);
    }
  });

  it('rejects a bad header, v7.3, truncation and a corrupted compressed element', () => {
    const good = writeMat5([{ name: 'a', dims: [1, 4], data: Uint8Array.from([1, 2, 3, 4]) }]);
    expect(() => parseMat5(good.subarray(0, 100), 'f.mat')).toThrow(/f\.mat: a MAT-file has a 128-byte header, got 100 bytes/);
    const badMagic = good.slice();
    badMagic[126] = 0;
    expect(() => parseMat5(badMagic, 'f.mat')).toThrow(/not a MATLAB level-5 MAT-file/);
    const v73 = good.slice();
    v73.set(new TextEncoder().encode('MATLAB 7.3 MAT-file'));
    expect(() => parseMat5(v73, 'f.mat')).toThrow(/v7\.3 \(HDF5\) is not supported/);
    expect(() => parseMat5(good.subarray(0, good.length - 8), 'f.mat')).toThrow(/truncated/);
    const zipped = writeMat5([{ name: 'a', dims: [1, 4], data: Uint8Array.from([1, 2, 3, 4]) }], true);
    const broken = zipped.slice();
    broken.fill(0xff, 140, 150);
    expect(() => parseMat5(broken, 'z.mat')).toThrow(/z\.mat: compressed element at byte 128 does not inflate/);
  });
});

describe('parseSvhnMat', () => {
  it('converts column-major X to NHWC and label 10 to digit 0', () => {
    const decoded = parseSvhnMat(svhnFixture([10, 3], true), 'train_32x32.mat');
    expect(Array.from(decoded.labels)).toEqual([0, 3]);
    // NHWC (i=1, row h=2, col w=5, c=1) = 3072 + (2·32 + 5)·3 + 1 → (2 + 10 + 5 + 11) = 28
    expect(decoded.pixels[3072 + (2 * 32 + 5) * 3 + 1]).toBe(28);
    expect(decoded.pixels[(31 * 32 + 0) * 3 + 2]).toBe(31 + 10); // i=0, h=31, w=0, c=2
  });

  it('rejects wrong shapes, missing variables and labels outside 1..10', () => {
    expect(() => parseSvhnMat(svhnFixture([11], false), 'test_32x32.mat')).toThrow(/test_32x32\.mat: y\[0\] must be in 1\.\.10, got 11/);
    expect(() => parseSvhnMat(svhnFixture([0], false), 't.mat')).toThrow(/got 0/);
    const noY = writeMat5([{ name: 'X', dims: [32, 32, 3, 1], data: new Uint8Array(3072) }]);
    expect(() => parseSvhnMat(noY, 't.mat')).toThrow(/expected variables X and y, found \[X\]/);
    const wrongDims = writeMat5([
      { name: 'X', dims: [32, 16, 6, 1], data: new Uint8Array(3072) },
      { name: 'y', dims: [1, 1], data: Float64Array.of(1) },
    ]);
    expect(() => parseSvhnMat(wrongDims, 't.mat')).toThrow(/X must be uint8 \[32, 32, 3, N\], got uint8 \[32, 16, 6, 1\]/);
    expect(() => parseSvhnMat(svhnFixture([1, 2], false), 't.mat', 73_257)).toThrow(/expected 73257 images, got 2/);
  });

  it('loads train then test from dataDir through loadDataset', async () => {
    const dir = await tempDir('mia-svhn-');
    await writeFile(join(dir, 'train_32x32.mat'), svhnFixture([1, 2], true));
    await writeFile(join(dir, 'test_32x32.mat'), svhnFixture([10], false));
    const data = await loadDataset('svhn', { dataDir: dir, verifySizes: false });
    expect(Array.from(data.y)).toEqual([1, 2, 0]);
    await expect(loadDataset('svhn', { dataDir: dir })).rejects.toThrow(/expected 73257 images, got 2/);
  });
});
