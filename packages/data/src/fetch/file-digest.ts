import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { ProgressCallback } from './progress';

/** Hex digest of bytes. @param algorithm - 'sha256' (default) or 'md5' (only where a source publishes just MD5). */
export function digestBytes(bytes: Uint8Array | readonly Uint8Array[], algorithm: 'sha256' | 'md5' = 'sha256'): string {
  const hash = createHash(algorithm);
  for (const part of Array.isArray(bytes) ? bytes : [bytes as Uint8Array]) hash.update(part);
  return hash.digest('hex');
}

/** Hex digest of a file, streamed (constant memory), reporting `verify` progress. */
export async function digestFile(path: string, algorithm: 'sha256' | 'md5' = 'sha256', onProgress?: ProgressCallback, total?: number): Promise<string> {
  const hash = createHash(algorithm);
  let loaded = 0;
  const file = path.split(/[\\/]/).pop() ?? path;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 22 })) {
    hash.update(chunk as Buffer);
    loaded += (chunk as Buffer).length;
    onProgress?.({ phase: 'verify', file, loaded, ...(total === undefined ? {} : { total }) });
  }
  return hash.digest('hex');
}
