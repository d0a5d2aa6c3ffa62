import { InvalidDatasetError } from '@mia/core';
import { progressReporter, type ProgressCallback } from '../fetch/progress';
import type { Dataset, Normalization } from './dataset';
import { datasetInfo, type DatasetName } from './dataset-info';
import { loadCifar10, type Cifar10Source } from './load-cifar10';
import { loadCifar100FromDir, loadSvhnFromDir, loadTabularFromDir } from './load-from-dir';
import { purchaseLike, texasLike } from './stand-ins';

/** Options of {@link loadDataset}. */
export interface LoadDatasetOptions {
  /** Directory with the original files (CLI: `--data-dir`). Required for cifar100, svhn, purchase100, texas100. */
  readonly dataDir?: string;
  /** @default $MIA_CACHE_DIR or ~/.cache/mia */
  readonly cacheDir?: string;
  /** CIFAR-10 only: where to get it. @default 'auto' */
  readonly source?: Cifar10Source;
  readonly onProgress?: ProgressCallback;
  /** CIFAR-10 only: told about a repaired problem (a corrupted cache file fetched again). @default a line on stderr */
  readonly onWarning?: (message: string) => void;
  /** Images: float mapping of `gather`. @default 'unit' */
  readonly normalization?: Normalization;
  /** Require the official file sizes. @default true */
  readonly verifySizes?: boolean;
  /** Stand-ins: number of records (default: the real dataset's size). */
  readonly size?: number;
  /** Stand-ins: seed of the records. @default 0 */
  readonly seed?: number;
}

/**
 * Loads a dataset by name as a {@link Dataset} (pooled train + test, docs/protocol.md §1.1). CIFAR-10 is
 * fetched and cached automatically; CIFAR-100, SVHN, Purchase100 and Texas100 are read from
 * `dataDir`; `purchaseLike` / `texasLike` are generated (`source: 'stand-in'`).
 * @throws InvalidArgumentError for an unknown name; InvalidDatasetError when the data is missing, saying what to download and where to point `dataDir`.
 */
export async function loadDataset(name: DatasetName, options: LoadDatasetOptions = {}): Promise<Dataset> {
  const info = datasetInfo(name);
  const { dataDir } = options;
  if (name === 'cifar10') return loadCifar10(options);
  if (name === 'purchaseLike' || name === 'texasLike') {
    const make = name === 'purchaseLike' ? purchaseLike : texasLike;
    return make({ ...(options.size === undefined ? {} : { size: options.size }), ...(options.seed === undefined ? {} : { seed: options.seed }) });
  }
  if (options.source !== undefined && options.source !== 'auto' && options.source !== 'dir') {
    throw new InvalidDatasetError(`loadDataset: source '${options.source}' exists only for cifar10; ${name}: ${info.obtain}`);
  }
  if (dataDir === undefined) {
    throw new InvalidDatasetError(`loadDataset: ${name} is not downloaded automatically and no data directory was given: ${info.obtain}`);
  }
  const dirOptions = {
    onProgress: progressReporter(options.onProgress), // a bar on a TTY, as for CIFAR-10
    ...(options.verifySizes === undefined ? {} : { verifySizes: options.verifySizes }),
    ...(options.normalization === undefined ? {} : { normalization: options.normalization }),
  };
  if (name === 'cifar100') return loadCifar100FromDir(dataDir, dirOptions);
  if (name === 'svhn') return loadSvhnFromDir(dataDir, dirOptions);
  return loadTabularFromDir(name, dataDir, dirOptions);
}
