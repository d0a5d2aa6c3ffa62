import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../test-utils/temp-dir';
import { InvalidDatasetError } from '@mia/core';
import { parseCifar10Batch, parseCifar100 } from './cifar-binary';
import { cifar10Batch, fixturePixel } from '../test-utils/cifar-fixtures';
import { makeTarGz } from '../test-utils/tar-writer';
import { loadCifar10 } from '../datasets/load-cifar10';
import { loadDataset } from '../datasets/load-dataset';

afterAll(removeTempDirs);

describe('parseCifar10Batch', () => {
  it('reads labels and converts channel-major records to NHWC', () => {
    const decoded = parseCifar10Batch(cifar10Batch([6, 9, 0]), 'data_batch_1.bin');
    expect(Array.from(decoded.labels)).toEqual([6, 9, 0]);
    // NHWC position (i, p, c) = i·3072 + 3p + c holds the fixture byte of (i, c, p).
    expect(decoded.pixels[0]).toBe(fixturePixel(0, 0, 0));
    expect(decoded.pixels[1]).toBe(50); // image 0, pixel 0, green: 0·7 + 1·50 + 0
    expect(decoded.pixels[3072 + 3 * 33 + 2]).toBe((7 + 100 + 33) % 256); // image 1, pixel 33, blue = 140
  });

  it('rejects a truncated file, a wrong count and a label ≥ 10 with the file name', () => {
    const good = cifar10Batch([1, 2]);
    expect(() => parseCifar10Batch(good.subarray(0, good.length - 1), 'data_batch_2.bin')).toThrow(
      /data_batch_2\.bin must be a whole number of 3073-byte records, got 6145 bytes/,
    );
    expect(() => parseCifar10Batch(good, 'test_batch.bin', 10_000)).toThrow(/must hold 10000 images.*got 2/);
    expect(() => parseCifar10Batch(cifar10Batch([3, 10]), 'x.bin')).toThrow(/record 1 has label 10, expected \[0, 9\]/);
    expect(() => parseCifar10Batch(new Uint8Array(0), 'empty.bin')).toThrow(InvalidDatasetError);
    let caught: unknown;
    try {
      parseCifar10Batch(new Uint8Array(5), 'bad.bin');
    } catch (error) {
      caught = error;
    }
    expect(InvalidDatasetError.isInstance(caught)).toBe(true);
    expect(String(caught)).toMatch(/bad\.bin.*dataDir/);
  });
});

describe('parseCifar100', () => {
  it('reads coarse and fine labels', () => {
    const decoded = parseCifar100(
      cifar10Batch(
        [0, 0],
        [
          [19, 99],
          [3, 42],
        ],
      ),
      'train.bin',
    );
    expect(Array.from(decoded.labels)).toEqual([99, 42]);
    expect(Array.from(decoded.coarseLabels!)).toEqual([19, 3]);
    expect(decoded.pixels[3072]).toBe(7);
  });

  it('rejects a coarse label ≥ 20 and a fine label ≥ 100', () => {
    expect(() => parseCifar100(cifar10Batch([0], [[20, 1]]), 'train.bin')).toThrow(/record 0 has label 20, expected \[0, 19\]/);
    expect(() => parseCifar100(cifar10Batch([0], [[1, 100]]), 'test.bin')).toThrow(/label 100, expected \[0, 99\]/);
  });
});

describe('CIFAR from dataDir', () => {
  it('pools data_batch_1..5 then test_batch, from cifar-10-batches-bin/', async () => {
    const dir = await tempDir('mia-cifar-');
    await mkdir(join(dir, 'cifar-10-batches-bin'));
    const names = ['data_batch_1', 'data_batch_2', 'data_batch_3', 'data_batch_4', 'data_batch_5', 'test_batch'];
    await Promise.all(names.map((n, k) => writeFile(join(dir, 'cifar-10-batches-bin', `${n}.bin`), cifar10Batch([k, k]))));
    const data = await loadCifar10({ dataDir: dir, verifySizes: false });
    expect(data.size).toBe(12);
    expect(Array.from(data.y)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    expect(data.source).toBe('real');
    await expect(loadCifar10({ dataDir: dir })).rejects.toThrow(/must hold 10000 images/);
  });

  it('reads cifar-10-binary.tar.gz placed in dataDir', async () => {
    const dir = await tempDir('mia-cifar-');
    const names = ['data_batch_1', 'data_batch_2', 'data_batch_3', 'data_batch_4', 'data_batch_5', 'test_batch'];
    await writeFile(
      join(dir, 'cifar-10-binary.tar.gz'),
      makeTarGz(names.map((n, k) => ({ name: `cifar-10-batches-bin/${n}.bin`, bytes: cifar10Batch([9 - k]) }))),
    );
    const data = await loadCifar10({ dataDir: dir, verifySizes: false });
    expect(Array.from(data.y)).toEqual([9, 8, 7, 6, 5, 4]);
    expect(data.description).toMatch(/from files in /);
  });

  it('names the missing files', async () => {
    const dir = await tempDir('mia-cifar-');
    await writeFile(join(dir, 'data_batch_1.bin'), cifar10Batch([1]));
    await expect(loadCifar10({ dataDir: dir })).rejects.toThrow(/must hold data_batch_1\.bin, .*test_batch\.bin/);
  });

  it('loads CIFAR-100 train.bin + test.bin through loadDataset', async () => {
    const dir = await tempDir('mia-cifar100-');
    await writeFile(
      join(dir, 'train.bin'),
      cifar10Batch(
        [0, 0],
        [
          [1, 2],
          [3, 4],
        ],
      ),
    );
    await writeFile(join(dir, 'test.bin'), cifar10Batch([0], [[5, 6]]));
    const data = await loadDataset('cifar100', { dataDir: dir, verifySizes: false });
    expect(Array.from(data.y)).toEqual([2, 4, 6]);
    expect(data.numClasses).toBe(100);
  });
});
