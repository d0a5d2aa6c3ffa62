import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nativeUnavailableReason } from '@mia/backend-native';
import { runMia } from '../test-utils/run-mia';

// How `mia` picks its backend: native by default when its addon loads, wasm (saying why once) when
// it does not, and an explicit `--backend` that cannot load is an error.
const dir = mkdtempSync(join(tmpdir(), 'mia-cli-backend-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = join(dir, 'tiny.json');
writeFileSync(
  config,
  JSON.stringify({
    name: 'cli-backend',
    scale: 'smoke',
    seed: 1,
    dataset: { name: 'purchaseLike', size: 400 },
    partition: { preset: 'CCL4', maxPerRole: 40 },
    model: { name: 'mlp', options: { hidden: [16] } },
    training: { epochs: 1, batchSize: 20, lr: 0.1 },
    defenses: [{ name: 'none' }],
    attacks: ['loss'],
  }),
);

const mia = (extraEnv: Record<string, string>, ...rest: string[]) => runMia(rest, { env: { MIA_CACHE_DIR: join(dir, 'cache'), ...extraEnv } });

const BROKEN = { MIA_NATIVE_ADDON: join(dir, 'no-such-addon.node') };

describe('mia --backend', () => {
  it('without native kernels: says why once, runs on wasm; --backend native then fails naming the reason', async () => {
    const fallback = await mia(BROKEN, 'run', config, '--out', join(dir, 'out-wasm'));
    expect(fallback.status, fallback.stderr).toBe(0);
    expect(fallback.stderr).toMatch(/^backend: wasm/m);
    const notes = fallback.stderr.match(/note: native kernels unavailable, training on wasm: .*no-such-addon\.node/g) ?? [];
    expect(notes).toHaveLength(1);
    const explicit = await mia(BROKEN, '--backend', 'native', 'run', config);
    expect(explicit.status).toBe(1);
    expect(explicit.stderr).toMatch(/mia: initBackend: no backend could be loaded: native \(.*no-such-addon\.node/);
  }, 300_000);

  it('rejects an unknown backend and a bad thread count before doing anything', async () => {
    const unknown = await mia({}, '--backend', 'gpu', 'run', config);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/--backend must be one of tensorflow-gpu, tensorflow, native, wasm, cpu, got "gpu"/);
    const threads = await mia({}, '--threads', '0', 'run', config);
    expect(threads.status).toBe(1);
    expect(threads.stderr).toMatch(/--threads must be a positive integer, got "0"/);
  }, 120_000);

  it.skipIf(nativeUnavailableReason() !== undefined && process.env['MIA_REQUIRE_NATIVE'] !== '1')(
    'runs on native by default when the addon loads, and records it in results.json',
    async () => {
      const r = await mia({}, '--threads', '2', 'run', config, '--out', join(dir, 'out-native'));
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^backend: native/m);
      expect(r.stderr).not.toMatch(/native kernels unavailable/);
      expect(JSON.parse(readFileSync(join(dir, 'out-native', 'results.json'), 'utf8')).backend).toBe('native');
      expect(JSON.parse(readFileSync(join(dir, 'out-wasm', 'results.json'), 'utf8')).backend).toBe('wasm');
    },
    300_000,
  );
});
