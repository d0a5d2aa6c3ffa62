import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { InvalidDatasetError } from '@mia/core';
import type { ProgressCallback } from '../fetch/progress';
import { ShokriTextParser, type ShokriRows, type ShokriTextOptions } from './shokri-text-parser';

/**
 * Streams a Shokri-format text file from disk through {@link ShokriTextParser} (constant extra
 * memory: Texas100's 830 MB feature file is never held as text).
 * @throws InvalidDatasetError when the file is missing or malformed.
 */
export async function readShokriFile(path: string, options: Omit<ShokriTextOptions, 'file'>, onProgress?: ProgressCallback): Promise<ShokriRows> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isFile()) throw new InvalidDatasetError(`Shokri reader: ${path} does not exist`);
  const rowsHint = options.expectedRows ?? Math.max(1, Math.ceil(info.size / (2 * options.numFeatures + 4)));
  const parser = new ShokriTextParser({ rowsHint, ...options, file: path });
  let loaded = 0;
  const file = path.split(/[\\/]/).pop() ?? path;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 22 })) {
    parser.push(chunk as Buffer);
    loaded += (chunk as Buffer).length;
    onProgress?.({ phase: 'decode', file, loaded, total: info.size });
  }
  return parser.finish();
}
