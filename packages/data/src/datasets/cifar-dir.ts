import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidDatasetError } from '@mia/core';
import { concatDecoded, type DecodedImages } from '../formats/cifar-binary';

/**
 * Finds `files` in `dataDir` or in one of its `subdirs` (e.g. the `cifar-10-batches-bin/` an
 * extracted archive creates).
 * @returns the directory holding all of them, or undefined.
 */
export async function findDirectoryWith(dataDir: string, files: readonly string[], subdirs: readonly string[]): Promise<string | undefined> {
  for (const dir of [dataDir, ...subdirs.map((s) => join(dataDir, s))]) {
    const present = await Promise.all(
      files.map((f) =>
        stat(join(dir, f)).then(
          (s) => s.isFile(),
          () => false,
        ),
      ),
    );
    if (present.every(Boolean)) return dir;
  }
  return undefined;
}

/**
 * Reads and pools image files from a directory, in the given order.
 * @param parse - parses one file (and checks its size when `verifySizes`).
 * @throws InvalidDatasetError when a file is missing (naming the expected files) or malformed.
 */
export async function readImageFiles(
  dataDir: string,
  files: readonly string[],
  subdirs: readonly string[],
  parse: (bytes: Uint8Array, file: string) => DecodedImages,
  what: string,
): Promise<DecodedImages> {
  const dir = await findDirectoryWith(dataDir, files, subdirs);
  if (dir === undefined) {
    throw new InvalidDatasetError(
      `${what}: dataDir ${dataDir} must hold ${files.join(', ')} (directly or in ${subdirs.join(' or ')}/); put the original files there`,
    );
  }
  const parts: DecodedImages[] = [];
  for (const file of files) parts.push(parse(await readFile(join(dir, file)), join(dir, file)));
  return parts.length === 1 ? parts[0]! : concatDecoded(parts);
}
