import { createServer, type Server } from 'node:http';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../test-utils/temp-dir';
import { InvalidDatasetError } from '@mia/core';
import { downloadFile } from './download-file';
import { digestBytes } from './file-digest';
import type { ProgressEvent } from './progress';

afterAll(removeTempDirs);

const payload = new Uint8Array(200_000).map((_, i) => (i * 31) % 251);
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/file.bin') {
      res.writeHead(200, { 'content-length': payload.length });
      res.end(payload);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('downloadFile', () => {
  const pin = { name: 'file.bin', size: payload.length, digest: digestBytes(payload) };

  it('streams to the cache with progress, verifies the digest, and reuses a good copy', async () => {
    const dir = await tempDir('mia-dl-');
    const events: ProgressEvent[] = [];
    const path = await downloadFile(`${base}/file.bin`, { directory: dir, pin, howToFix: 'use dataDir', onProgress: (e) => events.push(e) });
    expect(Buffer.compare(await readFile(path), Buffer.from(payload))).toBe(0);
    expect(events.at(-1)).toEqual({ phase: 'download', file: 'file.bin', loaded: payload.length, total: payload.length });
    const again = await downloadFile(`${base}/missing`, { directory: dir, pin, howToFix: 'use dataDir' });
    expect(again).toBe(path); // cached: no request needed (the URL would 404)
  });

  it('fails with the file name and leaves nothing in the cache on a digest mismatch', async () => {
    const dir = await tempDir('mia-dl-');
    const wrong = { ...pin, digest: '0'.repeat(64) };
    await expect(downloadFile(`${base}/file.bin`, { directory: dir, pin: wrong, howToFix: 'pass dataDir' })).rejects.toThrow(
      /file\.bin downloaded from .* is wrong: 200000 bytes with sha256 [0-9a-f]{64}, expected 200000 bytes with 0{64}; pass dataDir/,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it('reports HTTP errors and replaces a corrupted cached copy', async () => {
    const dir = await tempDir('mia-dl-');
    await expect(downloadFile(`${base}/nope`, { directory: dir, pin, howToFix: 'x' })).rejects.toThrow(/HTTP 404/);
    await writeFile(join(dir, 'file.bin'), 'garbage');
    const error = await downloadFile(`${base}/file.bin`, { directory: dir, pin, howToFix: 'x' }).catch((e: unknown) => e);
    expect(InvalidDatasetError.isInstance(error)).toBe(true);
    expect(String(error)).toMatch(/file\.bin .* must be 200000 bytes, got 7 \(removed\)/);
    expect(await readdir(dir)).toEqual([]);
    await downloadFile(`${base}/file.bin`, { directory: dir, pin, howToFix: 'x' });
    expect(await readdir(dir)).toEqual(['file.bin']);
  });
});
