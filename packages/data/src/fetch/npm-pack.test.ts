import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../test-utils/temp-dir';
import { digestBytes } from './file-digest';
import { npmPack } from './npm-pack';
import { fakeNpm } from '../test-utils/fake-npm';

afterAll(removeTempDirs);

describe('npmPack', () => {
  const pin = { name: 'pkg-1.0.0.tgz', size: 5, digest: digestBytes(new TextEncoder().encode('hello')) };

  it('moves a verified tarball into the directory and leaves no work files', async () => {
    const dir = await tempDir('mia-pack-');
    const npmCommand = await fakeNpm(dir, 'hello');
    const cache = join(dir, 'cache');
    const path = await npmPack('pkg@1.0.0', { directory: cache, pin, howToFix: 'use dataDir', npmCommand });
    expect(path).toBe(join(cache, 'pkg-1.0.0.tgz'));
    expect(await readdir(cache)).toEqual(['pkg-1.0.0.tgz']);
  });

  it('fails clearly, naming the spec and npm error, when npm fails or the tarball differs', async () => {
    const dir = await tempDir('mia-pack-');
    const cache = join(dir, 'cache');
    const failing = await fakeNpm(dir, undefined);
    await expect(npmPack('pkg@1.0.0', { directory: cache, pin, howToFix: 'pass dataDir', npmCommand: failing })).rejects.toThrow(
      /npm pack pkg@1\.0\.0 failed \(exit code 1\): npm error 404 Not Found.*; pass dataDir/,
    );
    const wrong = await fakeNpm(dir, 'hellO');
    await expect(npmPack('pkg@1.0.0', { directory: cache, pin, howToFix: 'pass dataDir', npmCommand: wrong })).rejects.toThrow(
      /pkg-1\.0\.0\.tgz .* has sha256 [0-9a-f]{64}, expected 2cf24dba.* \(removed\); pass dataDir/,
    );
    await expect(npmPack('pkg@1.0.0', { directory: cache, pin, howToFix: 'x', npmCommand: join(dir, 'no-such-npm') })).rejects.toThrow(
      /npm pack pkg@1\.0\.0 failed \(spawn .*ENOENT\)/,
    );
    expect(await readdir(cache)).toEqual([]);
  });
});
