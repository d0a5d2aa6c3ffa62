import { describe, expect, it } from 'vitest';
import { purchaseLike, texasLike } from './stand-ins';
import { loadDataset } from './load-dataset';
import { datasetInfo } from './dataset-info';

function hamming(a: Uint8Array, b: Uint8Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += a[i] === b[i] ? 0 : 1;
  return d;
}

describe('purchaseLike / texasLike', () => {
  it('are seeded, sized and marked as stand-ins', () => {
    const a = purchaseLike({ size: 300, seed: 3 });
    const b = purchaseLike({ size: 300, seed: 3 });
    const c = purchaseLike({ size: 300, seed: 4 });
    expect(a.source).toBe('stand-in');
    expect(a.description).toMatch(/synthetic stand-in purchaseLike: 300 records, 600 binary features, 100 classes/);
    expect(a.inputShape).toEqual([600]);
    expect(Buffer.compare(Buffer.from(a.features), Buffer.from(b.features))).toBe(0);
    expect(Array.from(a.y)).toEqual(Array.from(b.y));
    expect(Buffer.compare(Buffer.from(a.features), Buffer.from(c.features))).not.toBe(0);
    const t = texasLike({ size: 50 });
    expect(t.numFeatures).toBe(6169);
    expect(t.y.every((v) => v >= 0 && v < 100)).toBe(true);
  });

  it('have prototype + noise structure: same-class records are closer than other-class ones', () => {
    const data = purchaseLike({ size: 2000, seed: 1 });
    const f = data.numFeatures;
    const row = (i: number): Uint8Array => data.features.subarray(i * f, (i + 1) * f);
    let same = 0,
      sameN = 0,
      other = 0,
      otherN = 0;
    for (let i = 0; i < 300; i++)
      for (let j = i + 1; j < 300; j++) {
        if (data.y[i] === data.y[j]) {
          same += hamming(row(i), row(j));
          sameN++;
        } else {
          other += hamming(row(i), row(j));
          otherN++;
        }
      }
    // Hand calculation from the generator (density 0.25, keep 0.22): P(1 | prototype bit 1) = 0.415,
    // P(1 | 0) = 0.195, so two same-class records differ in 600·(0.25·2·0.415·0.585 + 0.75·2·0.195·0.805)
    // ≈ 214.1 bits; records of unrelated classes in up to 600·2·0.25·0.75 = 225 bits.
    expect(sameN).toBeGreaterThan(0);
    expect(same / sameN).toBeCloseTo(214.1, -1);
    expect(same / sameN).toBeLessThan(other / otherN - 2);
    const ones = data.features.reduce((s, v) => s + v, 0) / data.features.length;
    expect(ones).toBeCloseTo(0.25, 1);
  });

  it('come from loadDataset with a size option; real tabular data needs dataDir', async () => {
    const data = await loadDataset('texasLike', { size: 20, seed: 2 });
    expect(data.size).toBe(20);
    expect(data.source).toBe('stand-in');
    // The message speaks of the user's situation: what to download, where to point the loader, the alternative.
    await expect(loadDataset('purchase100')).rejects.toThrow(
      "loadDataset: purchase100 is not downloaded automatically and no data directory was given: download https://github.com/privacytrustlab/datasets/raw/master/dataset_purchase.tgz (Shokri et al.), extract it and give the directory holding dataset_purchase as --data-dir (CLI), dataset.dataDir (config) or dataDir (loadDataset); or use the synthetic stand-in 'purchaseLike'",
    );
    await expect(loadDataset('cifar100')).rejects.toThrow(
      /download cifar-100-binary\.tar\.gz from https:\/\/www\.cs\.toronto\.edu\/~kriz\/cifar\.html, extract it and give the directory holding train\.bin and test\.bin .* as --data-dir \(CLI\)/,
    );
    for (const name of ['cifar100', 'svhn', 'texas100'] as const) {
      const message = String(await loadDataset(name).catch((error: Error) => error.message));
      expect(message).toMatch(
        /^loadDataset: \w+ is not downloaded automatically .*download .* as --data-dir \(CLI\), dataset\.dataDir \(config\) or dataDir \(loadDataset\)/,
      );
      expect(message).not.toMatch(/here|reachable/); // nothing about the machine the toolkit was built on
    }
    await expect(loadDataset('cifar100', { source: 'npm' })).rejects.toThrow(/source 'npm' exists only for cifar10/);
    expect(() => datasetInfo('mnist')).toThrow(/name must be one of cifar10, cifar100, svhn, purchase100, texas100, purchaseLike, texasLike, got "mnist"/);
  });
});

describe('loadCifar10 arguments', () => {
  it('rejects an unknown source and dir without dataDir', async () => {
    const { loadCifar10 } = await import('./load-cifar10');
    await expect(loadCifar10({ source: 'web' as never })).rejects.toThrow(/source must be 'auto', 'npm', 'official' or 'dir', got "web"/);
    await expect(loadCifar10({ source: 'dir' })).rejects.toThrow(/source 'dir' needs dataDir/);
  });
});
