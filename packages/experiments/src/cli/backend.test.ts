import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nativeUnavailableReason } from '@mia/backend-native';

// How `mia` picks its backend: native by default when its addon loads, wasm (saying why once) when
// it does not, and an explicit `--backend` that cannot load is an error.
const root = join(__dirname, '..', '..', '..', '..');
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

function mia(extraEnv: Record<string, string>, ...rest: string[]) {
  const args = ['--conditions=@mia/source', '--import', 'tsx', join(root, 'packages/experiments/src/cli/main.ts'), ...rest];
  const env = { ...process.env, MIA_CACHE_DIR: join(dir, 'cache'), ...extraEnv };
  return spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8', timeout: 300_000 });
}

const BROKEN = { MIA_NATIVE_ADDON: join(dir, 'no-such-addon.node') };

describe('mia --backend', () => {
  it('without native kernels: says why once, runs on wasm; --backend native then fails naming the reason', () => {
    const fallback = mia(BROKEN, 'run', config, '--out', join(dir, 'out-wasm'));
    expect(fallback.status, fallback.stderr).toBe(0);
    expect(fallback.stderr).toMatch(/^backend: wasm/m);
    const notes = fallback.stderr.match(/note: native kernels unavailable, training on wasm: .*no-such-addon\.node/g) ?? [];
    expect(notes).toHaveLength(1);
    const explicit = mia(BROKEN, '--backend', 'native', 'run', config);
    expect(explicit.status).toBe(1);
    expect(explicit.stderr).toMatch(/mia: initBackend: no backend could be loaded: native \(.*no-such-addon\.node/);
  }, 300_000);

  it('rejects an unknown backend and a bad thread count before doing anything', () => {
    const unknown = mia({}, '--backend', 'gpu', 'run', config);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/--backend must be one of tensorflow-gpu, tensorflow, native, wasm, cpu, got "gpu"/);
    const threads = mia({}, '--threads', '0', 'run', config);
    expect(threads.status).toBe(1);
    expect(threads.stderr).toMatch(/--threads must be a positive integer, got "0"/);
  }, 120_000);

  it.skipIf(nativeUnavailableReason() !== undefined && process.env['MIA_REQUIRE_NATIVE'] !== '1')(
    'runs on native by default when the addon loads, and records it in results.json',
    () => {
      const r = mia({}, '--threads', '2', 'run', config, '--out', join(dir, 'out-native'));
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^backend: native/m);
      expect(r.stderr).not.toMatch(/native kernels unavailable/);
      expect(JSON.parse(readFileSync(join(dir, 'out-native', 'results.json'), 'utf8')).backend).toBe('native');
      expect(JSON.parse(readFileSync(join(dir, 'out-wasm', 'results.json'), 'utf8')).backend).toBe('wasm');
    },
    300_000,
  );
});
