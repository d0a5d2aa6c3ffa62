import { readFile, rm } from 'node:fs/promises';
import { InvalidDatasetError } from '@mia/core';
import type { DecodedImages } from '../formats/cifar-binary';
import { digestBytes } from './file-digest';
import { writeFileAtomic } from './write-file-atomic';

const MAGIC = 'MIAIMG01';

/** Header of an image cache file. */
interface CacheHeader {
  count: number;
  imageBytes: number;
  coarse: boolean;
  /** SHA-256 of labels ‖ coarse labels ‖ pixels, checked on every read. */
  sha256: string;
}

function labelBytes(labels: Int32Array): Uint8Array {
  return Uint8Array.from(labels);
}

/** SHA-256 of decoded images in the cache layout (labels as bytes, coarse labels, NHWC pixels). */
export function decodedImagesDigest(images: DecodedImages): string {
  const parts = [labelBytes(images.labels)];
  if (images.coarseLabels !== undefined) parts.push(labelBytes(images.coarseLabels));
  parts.push(images.pixels);
  return digestBytes(parts);
}

/**
 * Writes decoded images as one compact file: `MIAIMG01`, a uint32 header length, a JSON header,
 * then labels (1 byte each), coarse labels if any, and NHWC pixels. Written atomically.
 */
export async function writeImageCache(path: string, images: DecodedImages): Promise<void> {
  const count = images.labels.length;
  const header: CacheHeader = {
    count,
    imageBytes: images.pixels.length / Math.max(1, count),
    coarse: images.coarseLabels !== undefined,
    sha256: decodedImagesDigest(images),
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const prefix = new Uint8Array(12);
  prefix.set(new TextEncoder().encode(MAGIC));
  new DataView(prefix.buffer).setUint32(8, json.length, true);
  const parts = [prefix, json, labelBytes(images.labels)];
  if (images.coarseLabels !== undefined) parts.push(labelBytes(images.coarseLabels));
  parts.push(images.pixels);
  await writeFileAtomic(path, parts);
}

/**
 * Reads a file written by {@link writeImageCache} and checks its size and SHA-256. A bad file is
 * deleted, so the caller can rebuild it.
 * @returns the images, or undefined when the file does not exist.
 * @throws InvalidDatasetError when the file is corrupted (after removing it).
 */
export async function readImageCache(path: string): Promise<DecodedImages | undefined> {
  const bytes = await readFile(path).catch(() => undefined);
  if (bytes === undefined) return undefined;
  const fail = async (problem: string): Promise<never> => {
    await rm(path, { force: true });
    throw new InvalidDatasetError(`image cache ${path} is corrupted (${problem}); it was removed`);
  };
  if (bytes.length < 12 || bytes.subarray(0, 8).toString('latin1') !== MAGIC) return fail('bad magic');
  const headerLength = bytes.readUInt32LE(8);
  let header: CacheHeader;
  try {
    header = JSON.parse(bytes.subarray(12, 12 + headerLength).toString('utf8')) as CacheHeader;
  } catch {
    return fail('bad header');
  }
  const start = 12 + headerLength;
  const n = header.count;
  const labelsEnd = start + n * (header.coarse ? 2 : 1);
  if (bytes.length !== labelsEnd + n * header.imageBytes) return fail(`size ${bytes.length} does not match its header`);
  const images: DecodedImages = {
    labels: Int32Array.from(bytes.subarray(start, start + n)),
    pixels: bytes.subarray(labelsEnd),
    ...(header.coarse ? { coarseLabels: Int32Array.from(bytes.subarray(start + n, labelsEnd)) } : {}),
  };
  if (digestBytes(bytes.subarray(start)) !== header.sha256) return fail('SHA-256 mismatch');
  return images;
}
