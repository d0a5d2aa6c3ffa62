import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { InvalidDatasetError } from '@mia/core';

/** A regular file read from a tar archive. */
export interface TarEntry {
  /** Path inside the archive, e.g. `package/data_batch_1.png`. */
  readonly name: string;
  readonly bytes: Uint8Array;
}

function readOctal(block: Uint8Array, offset: number, length: number): number {
  let text = '';
  for (let i = offset; i < offset + length && block[i] !== 0; i++) text += String.fromCharCode(block[i]!);
  const value = Number.parseInt(text.trim() || '0', 8);
  return Number.isFinite(value) ? value : -1;
}

function readString(block: Uint8Array, offset: number, length: number): string {
  let end = offset;
  while (end < offset + length && block[end] !== 0) end++;
  return new TextDecoder().decode(block.subarray(offset, end));
}

/**
 * Streams a `.tar.gz` archive and calls `onEntry` for each regular file whose name passes `wanted`,
 * holding only one entry in memory at a time (a 139 MB archive never sits in memory whole).
 * @throws InvalidDatasetError when the archive is truncated or not a tar.gz (`hint` says what to do).
 */
export async function readTarGzEntries(
  path: string,
  wanted: (name: string) => boolean,
  onEntry: (entry: TarEntry) => void | Promise<void>,
  hint: string,
): Promise<void> {
  const fail = (problem: string, cause?: unknown): never => {
    throw new InvalidDatasetError(`tar reader: ${path}: ${problem}; ${hint}`, cause === undefined ? {} : { cause });
  };
  let currentName = ''; // the entry whose body is being read
  let body: Uint8Array | undefined;
  let bodyFilled = 0;
  let remaining = 0; // body bytes (plus padding) still to consume for the current entry
  let pending = new Uint8Array(0);
  let ended = false;
  const stream = createReadStream(path).pipe(createGunzip());
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let data: Uint8Array = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      pending = new Uint8Array(0);
      while (data.length > 0 && !ended) {
        if (remaining > 0) {
          const take = Math.min(remaining, data.length);
          if (body !== undefined && bodyFilled < body.length) {
            const copy = Math.min(take, body.length - bodyFilled);
            body.set(data.subarray(0, copy), bodyFilled);
            bodyFilled += copy;
          }
          remaining -= take;
          data = data.subarray(take);
          if (remaining === 0 && body !== undefined) {
            await onEntry({ name: currentName, bytes: body });
            body = undefined;
          }
          continue;
        }
        if (data.length < 512) {
          pending = Uint8Array.from(data);
          break;
        }
        const block = data.subarray(0, 512);
        data = data.subarray(512);
        if (block.every((b) => b === 0)) {
          ended = true;
          break;
        }
        const size = readOctal(block, 124, 12);
        if (size < 0) fail('bad tar header');
        const type = String.fromCharCode(block[156]!);
        const posix = readString(block, 257, 6) === 'ustar'; // GNU tar uses these bytes for times
        const prefix = posix ? readString(block, 345, 155) : '';
        const name = (prefix ? `${prefix}/` : '') + readString(block, 0, 100);
        currentName = name;
        remaining = Math.ceil(size / 512) * 512;
        body = (type === '0' || type === '\0') && wanted(name) ? new Uint8Array(size) : undefined;
        bodyFilled = 0;
        if (remaining === 0 && body !== undefined) {
          await onEntry({ name, bytes: body });
          body = undefined;
        }
      }
      if (ended) break;
    }
  } catch (error) {
    if (InvalidDatasetError.isInstance(error)) throw error;
    fail(`cannot read the archive (${(error as Error).message})`, error);
  } finally {
    stream.destroy();
  }
  if (remaining > 0) fail('the archive is truncated');
}
