export {
  CIFAR_MEAN_STD,
  type Dataset,
  type DatasetSource,
  type ImageDataset,
  type TabularDataset,
  type Normalization,
} from './datasets/dataset';
export { imageDataset, type ImageDatasetInit } from './datasets/image-dataset';
export { tabularDataset, type TabularDatasetInit } from './datasets/tabular-dataset';
export { loadDataset, type LoadDatasetOptions } from './datasets/load-dataset';
export { datasetInfo, DATASETS, type DatasetInfo, type DatasetName } from './datasets/dataset-info';
export { loadCifar10, type LoadCifar10Options, type Cifar10Source } from './datasets/load-cifar10';
export { loadCifar100FromDir, loadSvhnFromDir, loadTabularFromDir, type DirLoadOptions } from './datasets/load-from-dir';
export {
  CIFAR10_NPM_SPEC,
  CIFAR10_NPM_TARBALL,
  CIFAR10_DECODED_SHA256,
  CIFAR10_OFFICIAL_TARBALL,
  CIFAR10_OFFICIAL_URL,
} from './datasets/cifar10-pins';
export { decodeCifar10NpmTarball } from './datasets/cifar10-npm';
export { decodeCifar10BinaryTarball } from './datasets/cifar10-official';
export { purchaseLike, texasLike, STAND_IN_PARAMETERS, type StandInOptions } from './datasets/stand-ins';
export { binaryStandIn, type BinaryStandInOptions } from './datasets/binary-stand-in';
export { parseCifar10Batch, parseCifar100, concatDecoded, type DecodedImages } from './formats/cifar-binary';
export { decodeCifarPng, parseCifarLabelJson } from './formats/cifar-png';
export { parseMat5, type MatArray } from './formats/mat5';
export { parseSvhnMat } from './formats/svhn-mat';
export { ShokriTextParser, parseShokriText, type ShokriTextOptions, type ShokriRows } from './formats/shokri-text-parser';
export { readShokriFile } from './formats/read-shokri-file';
export { resolveCacheDir } from './fetch/cache-dir';
export { progressReporter, formatProgress, type ProgressEvent, type ProgressCallback } from './fetch/progress';
export { digestBytes, digestFile } from './fetch/file-digest';
export { writeFileAtomic } from './fetch/write-file-atomic';
export { verifyPinnedFile, type PinnedFile } from './fetch/verified-file';
export { npmPack, type NpmPackOptions } from './fetch/npm-pack';
export { downloadFile, type DownloadFileOptions } from './fetch/download-file';
export { readTarGzEntries, type TarEntry } from './fetch/tar-gz-entries';
export { readImageCache, writeImageCache, decodedImagesDigest } from './fetch/image-cache-file';
export { partition, type Partition, type ModelSplit } from './partition/partition';
export { PAST6, CCL4, CCL5, RELAX5, SELENA, CRL, PAIRS, type PartitionPreset } from './partition/presets';
export { partitionFromJson, checkDisjoint, membershipMatrix } from './partition/partition-from-json';
export {
  applyCropFlip,
  cropFlipQueries,
  randomCropFlip,
  horizontalFlip,
  type CropFlip,
  type RandomCropFlipOptions,
} from './augment/crop-flip';
export { translateImages, translationQueries } from './augment/translate';
export { rotateImages, rotationQueries } from './augment/rotate';
export { flipFeatures } from './augment/flip-features';
