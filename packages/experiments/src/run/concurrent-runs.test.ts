import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMia } from '../test-utils/run-mia';

// Two `mia run`s of one config on one cache at the same time, as two CI jobs would start them.
const dir = mkdtempSync(join(tmpdir(), 'mia-concurrent-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = {
  name: 'concurrent',
  scale: 'smoke',
  seed: 5,
  dataset: { name: 'purchaseLike', size: 1000 },
  partition: { preset: 'CCL4', maxPerRole: 120 },
  model: { name: 'mlp', options: { hidden: [16] } },
  training: { epochs: 2, batchSize: 32, lr: 0.1 },
  defenses: [
    { name: 'none', label: 'undefended' },
    { name: 'ccl', label: 'CCQL', params: { alpha: 0.5, concave: 'quadratic' } },
  ],
  attacks: ['loss', 'nn-mlh'],
};

describe('two concurrent runs on one cache', () => {
  it('train each model and each NN attack model once across both processes, and report the same numbers', async () => {
    writeFileSync(join(dir, 'concurrent.json'), JSON.stringify(config));
    const cache = join(dir, 'cache');
    const runs = await Promise.all(
      [0, 1].map((i) => runMia(['--backend', 'cpu', 'run', join(dir, 'concurrent.json'), '--out', join(dir, `out-${i}`)], { env: { MIA_CACHE_DIR: cache } })),
    );
    expect(
      runs.map((r) => r.status),
      runs.map((r) => r.stderr).join('\n---\n'),
    ).toEqual([0, 0]);
    const lines = runs.flatMap((r) => r.stderr.split('\n'));
    // 2 defenses × (target, shadow) models, and one nn-mlh attack model per defense, across both processes.
    expect(lines.filter((l) => /^trained {4}\S+\/(target|shadow) /.test(l))).toHaveLength(4);
    expect(lines.filter((l) => /^training {3}.*: nn-mlh attack model/.test(l)).sort()).toEqual([
      'training   CCQL: nn-mlh attack model on 240 shadow signals',
      'training   undefended: nn-mlh attack model on 240 shadow signals',
    ]);
    // Each process got each attack model once: trained it, or read it (after waiting for the other).
    for (const r of runs) expect(r.stderr.split('\n').filter((l) => /^(training {3}|cache hit {2}).*nn-mlh attack/.test(l))).toHaveLength(2);
    const results = [0, 1].map(
      (i) => JSON.parse(readFileSync(join(dir, `out-${i}`, 'results.json'), 'utf8')) as { rows: Array<{ attacks: Array<{ attack: string; auc: number }> }> },
    );
    expect(results[1]!.rows.map((r) => r.attacks)).toEqual(results[0]!.rows.map((r) => r.attacks));
    expect(readdirSync(join(cache, 'models', '.claims'))).toEqual([]);
  }, 300_000);
});
