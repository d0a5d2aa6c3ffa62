import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../test-utils/temp-dir';
import { decodedImagesDigest, readImageCache, writeImageCache } from './image-cache-file';

afterAll(removeTempDirs);

describe('image cache file', () => {
  const images = { pixels: new Uint8Array(2 * 3072).map((_, i) => i % 256), labels: Int32Array.of(3, 7), coarseLabels: Int32Array.of(1, 19) };

  it('round-trips pixels, labels and coarse labels, atomically', async () => {
    const dir = await tempDir('mia-cache-');
    const path = join(dir, 'sub', 'x.miaimg');
    await writeImageCache(path, images);
    expect(await readdir(join(dir, 'sub'))).toEqual(['x.miaimg']);
    const back = (await readImageCache(path))!;
    expect(Array.from(back.labels)).toEqual([3, 7]);
    expect(Array.from(back.coarseLabels!)).toEqual([1, 19]);
    expect(Buffer.compare(Buffer.from(back.pixels), Buffer.from(images.pixels))).toBe(0);
    expect(decodedImagesDigest(back)).toBe(decodedImagesDigest(images));
    expect(await readImageCache(join(dir, 'absent'))).toBeUndefined();
  });

  it('detects a flipped byte or a truncated file and removes the file', async () => {
    const dir = await tempDir('mia-cache-');
    const path = join(dir, 'x.miaimg');
    await writeImageCache(path, images);
    const bytes = await readFile(path);
    bytes[bytes.length - 5]! ^= 1;
    await writeFile(path, bytes);
    await expect(readImageCache(path)).rejects.toThrow(/x\.miaimg is corrupted \(SHA-256 mismatch\); it was removed$/);
    expect(await readdir(dir)).toEqual([]);
    await writeImageCache(path, images);
    await writeFile(path, (await readFile(path)).subarray(0, 500));
    await expect(readImageCache(path)).rejects.toThrow(/does not match its header/);
    await writeFile(path, 'not a cache');
    await expect(readImageCache(path)).rejects.toThrow(/bad magic/);
  });
});
