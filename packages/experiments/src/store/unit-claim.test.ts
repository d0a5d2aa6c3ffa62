import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireClaim } from './unit-claim';

const dir = mkdtempSync(join(tmpdir(), 'mia-unit-claim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = 'ab'.repeat(16);

describe('acquireClaim', () => {
  it('gives up with the cause when the claim file can never be read, instead of retrying forever', async () => {
    // A directory where the claim file belongs: creating it fails (it exists), reading it fails (not a file).
    const claims = join(dir, 'unreadable');
    mkdirSync(join(claims, `${KEY}.json`), { recursive: true });
    await expect(acquireClaim(claims, KEY, { pollMs: 10 })).rejects.toThrow(
      `acquireClaim: ${join(claims, `${KEY}.json`)} must be a claim file this process can read and, when stale, move aside; 100 attempts in a row found it unreadable (not a file, or no read permission)`,
    );
  }, 20_000);

  it('takes a free claim and hands it to the next process after release', async () => {
    const claims = join(dir, 'free');
    const first = await acquireClaim(claims, KEY, { pollMs: 10 });
    expect(first.holder.pid).toBe(process.pid);
    await first.release();
    const second = await acquireClaim(claims, KEY, { pollMs: 10 });
    expect(second.holder.nonce).not.toBe(first.holder.nonce);
    await second.release();
  });
});
