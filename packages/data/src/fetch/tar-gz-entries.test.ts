import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../test-utils/temp-dir';
import { readTarGzEntries, type TarEntry } from './tar-gz-entries';
import { makeTarGz } from '../test-utils/tar-writer';
import { cifar10Batch } from '../test-utils/cifar-fixtures';
import { decodeCifar10BinaryTarball } from '../datasets/cifar10-official';

afterAll(removeTempDirs);

describe('readTarGzEntries', () => {
  it('streams the wanted entries with their bytes', async () => {
    const dir = await tempDir('mia-tar-');
    const big = new Uint8Array(70_000).map((_, i) => i % 253);
    await writeFile(
      join(dir, 'a.tgz'),
      makeTarGz([
        { name: 'p/a.txt', bytes: new TextEncoder().encode('abc') },
        { name: 'p/big', bytes: big },
        { name: 'p/skip', bytes: new Uint8Array(10) },
      ]),
    );
    const seen: TarEntry[] = [];
    await readTarGzEntries(
      join(dir, 'a.tgz'),
      (n) => n !== 'p/skip',
      (e) => {
        seen.push(e);
      },
      'hint',
    );
    expect(seen.map((e) => e.name)).toEqual(['p/a.txt', 'p/big']);
    expect(new TextDecoder().decode(seen[0]!.bytes)).toBe('abc');
    expect(Buffer.compare(Buffer.from(seen[1]!.bytes), Buffer.from(big))).toBe(0);
  });

  it('rejects a truncated archive and a file that is not gzip', async () => {
    const dir = await tempDir('mia-tar-');
    const archive = makeTarGz([{ name: 'x', bytes: new Uint8Array(50_000).map((_, i) => (i * 7919) % 256) }]);
    await writeFile(join(dir, 't.tgz'), archive.subarray(0, archive.length / 2));
    await expect(
      readTarGzEntries(
        join(dir, 't.tgz'),
        () => true,
        () => undefined,
        'pass dataDir',
      ),
    ).rejects.toThrow(/t\.tgz: .*; pass dataDir/);
    await writeFile(join(dir, 'n.tgz'), 'plain text');
    await expect(
      readTarGzEntries(
        join(dir, 'n.tgz'),
        () => true,
        () => undefined,
        'hint',
      ),
    ).rejects.toThrow(/cannot read the archive/);
  });
});

describe('decodeCifar10BinaryTarball', () => {
  it('reads the official layout in pooled order and names a missing batch', async () => {
    const dir = await tempDir('mia-tar-');
    const names = ['test_batch', 'data_batch_2', 'data_batch_1', 'data_batch_3', 'data_batch_4', 'data_batch_5'];
    const entries = names.map((n) => ({ name: `cifar-10-batches-bin/${n}.bin`, bytes: cifar10Batch([Number(n.at(-1)) || 0]) }));
    await writeFile(join(dir, 'c.tgz'), makeTarGz(entries));
    const decoded = await decodeCifar10BinaryTarball(join(dir, 'c.tgz'), undefined, false);
    expect(Array.from(decoded.labels)).toEqual([1, 2, 3, 4, 5, 0]);
    await writeFile(join(dir, 'd.tgz'), makeTarGz(entries.slice(1)));
    await expect(decodeCifar10BinaryTarball(join(dir, 'd.tgz'), undefined, false)).rejects.toThrow(/lacks test_batch\.bin; to provide CIFAR-10 by hand/);
  });
});
