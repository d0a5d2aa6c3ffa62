import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { miaNodeArgs, repositoryRoot as root, runMia } from '../test-utils/run-mia';

// The CLI as users run it from the repository (`pnpm mia …`): node + tsx on the sources.
const dir = mkdtempSync(join(tmpdir(), 'mia-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { MIA_CACHE_DIR: join(dir, 'cache') };
const mia = (...rest: string[]) => runMia(rest, { env });

const tiny = {
  name: 'cli-sweep',
  scale: 'smoke',
  seed: 2,
  dataset: { name: 'purchaseLike', size: 1200 },
  partition: { preset: 'CCL4', maxPerRole: 100 },
  model: { name: 'mlp', options: { hidden: [32] } },
  training: { epochs: 4, batchSize: 32, lr: 0.1 },
  defenses: [{ name: 'ccl', label: 'CCQL', params: { concave: 'quadratic' }, grid: { alpha: [0.2, 0.4, 0.6, 0.8] } }],
  attacks: ['loss', 'confidence'],
};

describe('mia CLI', () => {
  it('bad input: non-zero exit and a one-line reason naming the problem', async () => {
    writeFileSync(join(dir, 'broken.json'), '{"name": ');
    const broken = await mia('run', join(dir, 'broken.json'));
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(/^mia: loadExperimentConfig: .*broken.json is not valid JSON/m);
    writeFileSync(join(dir, 'unknown.json'), JSON.stringify({ ...tiny, defenses: [{ name: 'magic' }] }));
    const unknown = await mia('--backend', 'cpu', 'run', join(dir, 'unknown.json'));
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/mia: .*invalid experiment config:\n {2}defenses\[0\]\.name: expected one of none, ccl, .*got "magic"/);
    writeFileSync(join(dir, 'typo.json'), JSON.stringify({ ...tiny, defenses: [{ name: 'ccl', params: { alpah: 0.1 } }] }));
    const typo = await mia('--backend', 'cpu', 'run', join(dir, 'typo.json'));
    expect(typo.status).toBe(1);
    expect(typo.stderr).toMatch(/defenses\[0\]\.params\.alpah: expected one of the options alpha, .*got an unknown option/);
    const schema = await mia('schema');
    expect(schema.status).toBe(0);
    expect(
      JSON.parse(schema.stdout).properties.defenses.items.anyOf.map((v: { properties: { name: { const: string } } }) => v.properties.name.const),
    ).toContain('ccl');
    const attacks = JSON.parse(schema.stdout).properties.attacks.items.anyOf as Array<{ enum?: string[]; properties?: Record<string, any> }>;
    expect(attacks[0]!.enum).toContain('nn-mlh');
    expect(attacks.find((v) => v.properties?.name.const === 'nn-mlh')!.properties!.params.properties.epochs).toMatchObject({ type: 'integer', minimum: 1 });
    // User attacks (and defenses) of a module are in the schema with --module.
    const withModule = await mia('schema', '--module', join(root, 'packages/experiments/src/test-utils/user-attack-fixture.ts'));
    expect(withModule.status).toBe(0);
    expect(JSON.parse(withModule.stdout).properties.attacks.items.anyOf[0].enum).toContain('test-weighted-loss');
    writeFileSync(join(dir, 'missing-data.json'), JSON.stringify({ ...tiny, dataset: { name: 'texas100' } }));
    const missing = await mia('--backend', 'cpu', 'run', join(dir, 'missing-data.json'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(
      /mia: loadDataset: texas100 is not downloaded automatically and no data directory was given: download .* as --data-dir \(CLI\)/,
    );
    const badWorkers = await mia('--backend', 'cpu', 'run', join(dir, 'typo.json'), '--workers', 'two');
    expect(badWorkers.status).toBe(1);
    expect(badWorkers.stderr).toMatch(/^mia: run: --workers must be a non-negative integer, got "two"/m);
    const help = await mia('--help');
    expect(help.stdout).toMatch(/Commands:[\s\S]*run[\s\S]*sweep[\s\S]*reproduce[\s\S]*report[\s\S]*attack[\s\S]*datasets[\s\S]*cache/);
  });

  it('mia attack --scores audits exported scores from any framework', async () => {
    const n = 20;
    const losses = [...Array.from({ length: n }, (_, i) => 0.02 * i), ...Array.from({ length: n }, (_, i) => 0.02 * i + 0.3)];
    writeFileSync(join(dir, 'scores.json'), JSON.stringify({ labels: losses.map(() => 0), isMember: losses.map((_, i) => (i < n ? 1 : 0)), losses }));
    const out = await mia('attack', '--scores', join(dir, 'scores.json'), '--json');
    expect(out.status).toBe(0);
    const report = JSON.parse(out.stdout) as { rows: Array<{ attack: string; auc: number }> };
    const loss = report.rows.find((r) => r.attack === 'loss')!;
    // Members' losses 0.00–0.38, non-members' 0.30–0.68: the ranges overlap in [0.30, 0.38], so 0.9 < AUC < 1.
    expect(loss.auc).toBeGreaterThan(0.9);
    expect(loss.auc).toBeLessThan(1);
    // The same audit from NumPy arrays (.npy v1, little-endian float64 / int32 / uint8).
    const npy = (descr: string, shape: number[], bytes: Uint8Array) => {
      let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')},), }`;
      header += ' '.repeat(64 - ((10 + header.length + 1) % 64)) + '\n';
      const out = new Uint8Array(10 + header.length + bytes.length);
      out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 255, header.length >> 8]);
      out.set(new TextEncoder().encode(header), 10);
      out.set(bytes, 10 + header.length);
      return out;
    };
    writeFileSync(join(dir, 'losses.npy'), npy('<f8', [2 * n], new Uint8Array(Float64Array.from(losses).buffer)));
    writeFileSync(join(dir, 'labels.npy'), npy('<i4', [2 * n], new Uint8Array(new Int32Array(2 * n).buffer)));
    writeFileSync(
      join(dir, 'members.npy'),
      npy(
        '|u1',
        [2 * n],
        Uint8Array.from(losses, (_, i) => (i < n ? 1 : 0)),
      ),
    );
    const fromNpy = await mia(
      'attack',
      '--scores',
      join(dir, 'losses.npy'),
      '--labels',
      join(dir, 'labels.npy'),
      '--members',
      join(dir, 'members.npy'),
      '--json',
    );
    expect(fromNpy.status).toBe(0);
    expect((JSON.parse(fromNpy.stdout) as typeof report).rows.find((r) => r.attack === 'loss')!.auc).toBe(loss.auc);
    const noLabels = await mia('attack', '--scores', join(dir, 'losses.npy'));
    expect(noLabels.stderr).toMatch(/also give --labels <labels.npy> and --members <membership.npy>/);
    writeFileSync(join(dir, 'bad-scores.json'), JSON.stringify({ labels: [0, 1], isMember: [1], losses: [0.1, 0.2] }));
    const bad = await mia('attack', '--scores', join(dir, 'bad-scores.json'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^mia: .*bad-scores.json/m);
  });

  it('a killed sweep resumes without retraining finished models', async () => {
    writeFileSync(join(dir, 'sweep.json'), JSON.stringify(tiny));
    const cacheModels = join(dir, 'cache', 'models');
    const countEntries = () =>
      existsSync(cacheModels)
        ? readdirSync(cacheModels)
            .filter((d) => /^[a-f0-9]{2}$/.test(d))
            .flatMap((d) => readdirSync(join(cacheModels, d))).length
        : 0;
    const child = spawn(process.execPath, miaNodeArgs('--backend', 'cpu', 'sweep', join(dir, 'sweep.json'), '--workers', '1'), {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
    const deadline = Date.now() + 240_000;
    while (countEntries() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    const finishedBefore = countEntries();
    expect(finishedBefore).toBeGreaterThanOrEqual(2);
    expect(finishedBefore).toBeLessThan(8);
    mkdirSync(join(dir, 'out'), { recursive: true });
    const rerun = await mia('--backend', 'cpu', 'sweep', join(dir, 'sweep.json'), '--workers', '1', '--out', join(dir, 'out'));
    expect(rerun.status).toBe(0);
    const trainedAgain = (rerun.stderr.match(/\] trained /g) ?? []).length;
    expect(trainedAgain).toBe(8 - finishedBefore);
    expect(countEntries()).toBe(8);
    expect(rerun.stdout).toMatch(/CCQL alpha=0.8/);
    expect(existsSync(join(dir, 'out', 'report.html'))).toBe(true);
  }, 600_000);
});
