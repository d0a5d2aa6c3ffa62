import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidDatasetError } from '@mia/core';
import { parseCifar100 } from '../formats/cifar-binary';
import { readShokriFile } from '../formats/read-shokri-file';
import { parseSvhnMat } from '../formats/svhn-mat';
import type { ProgressCallback } from '../fetch/progress';
import { readImageFiles } from './cifar-dir';
import type { ImageDataset, Normalization, TabularDataset } from './dataset';
import { imageDataset } from './image-dataset';
import { tabularDataset } from './tabular-dataset';

/** Options shared by the directory loaders. */
export interface DirLoadOptions {
  readonly onProgress?: ProgressCallback;
  /** Require the official sizes (e.g. 50 000 + 10 000 CIFAR-100 images). @default true */
  readonly verifySizes?: boolean;
  /** Images only. @default 'unit' */
  readonly normalization?: Normalization;
}

/**
 * Loads CIFAR-100 from `dataDir` (`train.bin` then `test.bin`, directly or in `cifar-100-binary/`),
 * pooled: 60 000 images, fine labels as `y`, coarse labels as `coarseLabels`.
 * @throws InvalidDatasetError naming the missing or malformed file.
 */
export async function loadCifar100FromDir(dataDir: string, options: DirLoadOptions = {}): Promise<ImageDataset> {
  const strict = options.verifySizes ?? true;
  const sizes: Record<string, number> = { 'train.bin': 50_000, 'test.bin': 10_000 };
  const images = await readImageFiles(
    dataDir,
    ['train.bin', 'test.bin'],
    ['cifar-100-binary'],
    (bytes, file) => parseCifar100(bytes, file, strict ? sizes[file.split(/[\\/]/).pop()!] : undefined),
    'loadDataset(cifar100)',
  );
  return imageDataset({
    name: 'cifar100',
    source: 'real',
    description: `CIFAR-100, ${images.labels.length} images (train then test, pooled) from ${dataDir}`,
    pixels: images.pixels,
    labels: images.labels,
    coarseLabels: images.coarseLabels!,
    numClasses: 100,
    normalization: options.normalization ?? 'unit',
  });
}

/**
 * Loads SVHN cropped digits from `dataDir` (`train_32x32.mat` then `test_32x32.mat`), pooled:
 * 99 289 images, label = digit (docs/protocol.md §1.1).
 * @throws InvalidDatasetError naming the missing or malformed file.
 */
export async function loadSvhnFromDir(dataDir: string, options: DirLoadOptions = {}): Promise<ImageDataset> {
  const strict = options.verifySizes ?? true;
  const sizes: Record<string, number> = { 'train_32x32.mat': 73_257, 'test_32x32.mat': 26_032 };
  const images = await readImageFiles(
    dataDir,
    ['train_32x32.mat', 'test_32x32.mat'],
    ['svhn'],
    (bytes, file) => parseSvhnMat(bytes, file, strict ? sizes[file.split(/[\\/]/).pop()!] : undefined),
    'loadDataset(svhn)',
  );
  return imageDataset({
    name: 'svhn',
    source: 'real',
    description: `SVHN cropped digits, ${images.labels.length} images (train then test, pooled) from ${dataDir}`,
    pixels: images.pixels,
    labels: images.labels,
    numClasses: 10,
    normalization: options.normalization ?? 'unit',
  });
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/** File layouts of the Shokri et al. archives. */
const TABULAR = {
  purchase100: { numFeatures: 600, rows: 197_324, combined: ['dataset_purchase', 'purchase100.txt', 'purchase/dataset_purchase'] },
  texas100: { numFeatures: 6169, rows: 67_330, combined: ['dataset_texas', 'texas100.txt'], split: ['texas/100', '.'] },
} as const;

/**
 * Loads Purchase100 or Texas100 from `dataDir` in the Shokri et al. text format (docs/protocol.md §1.1):
 * Purchase `dataset_purchase` (label 1..100, then 600 binary features per line); Texas
 * `texas/100/feats` + `texas/100/labels` (6169 features; also accepted: one combined file
 * `dataset_texas`). Labels become 0..99. Rows keep the file order (apply a stored permutation in the partition).
 * @throws InvalidDatasetError naming the missing or malformed file.
 */
export async function loadTabularFromDir(name: 'purchase100' | 'texas100', dataDir: string, options: DirLoadOptions = {}): Promise<TabularDataset> {
  const spec = TABULAR[name];
  const expectedRows = (options.verifySizes ?? true) ? spec.rows : undefined;
  const common = { numFeatures: spec.numFeatures, ...(expectedRows === undefined ? {} : { expectedRows }) };
  let rows: { features: Uint8Array; labels: Int32Array } | undefined;
  for (const file of spec.combined) {
    if (await exists(join(dataDir, file))) {
      rows = await readShokriFile(join(dataDir, file), common, options.onProgress);
      break;
    }
  }
  for (const dir of 'split' in spec ? spec.split : []) {
    if (rows !== undefined) break;
    const feats = join(dataDir, dir, 'feats');
    const labelsFile = join(dataDir, dir, 'labels');
    if ((await exists(feats)) && (await exists(labelsFile))) {
      const features = await readShokriFile(feats, { ...common, hasLabel: false }, options.onProgress);
      const labels = await readShokriFile(labelsFile, { ...common, numFeatures: 0 });
      if (labels.rows !== features.rows) {
        throw new InvalidDatasetError(`loadDataset(${name}): ${labelsFile} has ${labels.rows} labels but ${feats} has ${features.rows} rows`);
      }
      rows = { features: features.features, labels: labels.labels };
    }
  }
  if (rows === undefined) {
    const expected = [...spec.combined, ...('split' in spec ? ['texas/100/feats + texas/100/labels'] : [])].join(', or ');
    throw new InvalidDatasetError(`loadDataset(${name}): dataDir ${dataDir} must hold ${expected} (the Shokri et al. files); put them there`);
  }
  return tabularDataset({
    name,
    source: 'real',
    description: `${name === 'purchase100' ? 'Purchase100' : 'Texas100'}, ${rows.labels.length} records from ${dataDir}`,
    features: rows.features,
    numFeatures: spec.numFeatures,
    labels: rows.labels,
    numClasses: 100,
  });
}
