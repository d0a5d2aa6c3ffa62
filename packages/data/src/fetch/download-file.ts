import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { once } from 'node:events';
import { InvalidDatasetError } from '@mia/core';
import { commitFile, temporaryPathFor } from './write-file-atomic';
import type { ProgressCallback } from './progress';
import { verifyPinnedFile, type PinnedFile } from './verified-file';

/** Options of {@link downloadFile}. */
export interface DownloadFileOptions {
  /** Directory the file is stored in, as `pin.name`. */
  readonly directory: string;
  readonly pin: PinnedFile;
  readonly onProgress?: ProgressCallback;
  /** What the user can do instead, appended to every error. */
  readonly howToFix: string;
  /** @default globalThis.fetch */
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * Downloads `url` into the cache: streamed to a temporary file while hashing, checked against the
 * pinned size and digest, then renamed into place. A file already there and matching is reused;
 * nothing half-written is ever left under the final name.
 * @returns the path of the verified file.
 * @throws InvalidDatasetError when the request fails, the server answers non-2xx, or the bytes differ from the pin.
 */
export async function downloadFile(url: string, options: DownloadFileOptions): Promise<string> {
  const { directory, pin, onProgress, howToFix } = options;
  const target = join(directory, pin.name);
  if (await verifyPinnedFile(target, pin, { remove: true, howToFix, ...(onProgress ? { onProgress } : {}) })) return target;
  await mkdir(dirname(target), { recursive: true });
  const tmp = temporaryPathFor(target);
  const algorithm = pin.algorithm ?? 'sha256';
  try {
    let response: Response;
    try {
      response = await (options.fetch ?? globalThis.fetch)(url);
    } catch (error) {
      throw new InvalidDatasetError(`download of ${url} failed (${(error as Error).message}); ${howToFix}`, { cause: error });
    }
    if (!response.ok || response.body === null) {
      throw new InvalidDatasetError(`download of ${url} failed: HTTP ${response.status}; ${howToFix}`);
    }
    const hash = createHash(algorithm);
    const out = createWriteStream(tmp);
    let loaded = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      loaded += chunk.length;
      if (!out.write(chunk)) await once(out, 'drain');
      onProgress?.({ phase: 'download', file: pin.name, loaded, ...(pin.size === undefined ? {} : { total: pin.size }) });
    }
    out.end();
    await once(out, 'finish');
    const digest = hash.digest('hex');
    if ((pin.size !== undefined && loaded !== pin.size) || digest !== pin.digest) {
      throw new InvalidDatasetError(
        `${pin.name} downloaded from ${url} is wrong: ${loaded} bytes with ${algorithm} ${digest}, expected ${pin.size ?? 'any number of'} bytes with ${pin.digest}; ${howToFix}`,
      );
    }
    await commitFile(tmp, target);
    return target;
  } finally {
    await rm(tmp, { force: true });
  }
}
