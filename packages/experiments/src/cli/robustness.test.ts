import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { miaNodeArgs, repositoryRoot as root, runMia } from '../test-utils/run-mia';

// What a user hits when a run is interrupted, shares its cache with another run, or has a bad
// config: the CLI as started from the repository (node + tsx on the sources, and `pnpm mia`).
const dir = mkdtempSync(join(tmpdir(), 'mia-cli-robust-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const node = (...rest: string[]) => [process.execPath, miaNodeArgs(...rest)] as const;

const config = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  scale: 'smoke',
  seed: 3,
  dataset: { name: 'purchaseLike', size: 1000 },
  partition: { preset: 'CCL4', maxPerRole: 120 },
  model: { name: 'mlp', options: { hidden: [16] } },
  training: { epochs: 3, batchSize: 32, lr: 0.1 },
  defenses: [
    { name: 'none', label: 'undefended' },
    { name: 'ccl', label: 'CCQL', params: { alpha: 0.5, concave: 'quadratic' } },
  ],
  attacks: ['loss'],
  ...extra,
});

/** Starts a command in its own process group (as a terminal does), collecting its output. */
function start(cmd: string, args: readonly string[], cache: string) {
  const proc = spawn(cmd, args, { cwd: root, env: { ...process.env, MIA_CACHE_DIR: cache }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  proc.stdout.on('data', (c: Buffer) => (output.stdout += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (output.stderr += c.toString()));
  const done = new Promise<number | null>((resolve) => proc.on('close', (code) => resolve(code)));
  return { proc, output, done };
}

async function waitFor(what: string, ok: () => boolean, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const claimFiles = (cache: string) => (existsSync(join(cache, 'models', '.claims')) ? readdirSync(join(cache, 'models', '.claims')) : []);
const temporaries = (cache: string) => (existsSync(join(cache, 'models')) ? readdirSync(join(cache, 'models')).filter((n) => n.startsWith('.tmp-')) : []);

describe('mia CLI robustness', () => {
  it('Ctrl-C (SIGINT to the process group) exits 130, started with node or with `pnpm mia`; it leaves no claim behind', async () => {
    writeFileSync(join(dir, 'long.json'), JSON.stringify(config('long', { training: { epochs: 400, batchSize: 32, lr: 0.1 } })));
    const cache = join(dir, 'cache-int');
    const direct = start(...node('--backend', 'cpu', 'run', join(dir, 'long.json')), cache);
    await waitFor('training to start', () => /training {3}undefended\/target/.test(direct.output.stderr) && claimFiles(cache).length === 1);
    process.kill(-direct.proc.pid!, 'SIGINT');
    expect(await direct.done).toBe(130);
    expect(direct.output.stderr).toMatch(/mia run: interrupted \(SIGINT\); finished models are kept in the cache/);
    expect(claimFiles(cache)).toEqual([]);
    expect(temporaries(cache)).toEqual([]);

    // `pnpm mia` (the repository's script, run by pnpm's shell emulator: .npmrc) passes the code on; a
    // reproduction without --scale says that it runs at the default scale.
    const viaPnpm = start('pnpm', ['-s', 'mia', '--backend', 'cpu', 'reproduce', 'ccl-table1'], join(dir, 'cache-pnpm'));
    await waitFor('the scale notice', () => viaPnpm.output.stderr.includes('reproduce: ccl-table1 at scale cpu, the default'));
    process.kill(-viaPnpm.proc.pid!, 'SIGINT');
    expect(await viaPnpm.done).toBe(130);
    expect(viaPnpm.output.stderr).toMatch(/mia reproduce: interrupted \(SIGINT\); finished models are kept in the cache/);
  }, 300_000);

  it('two runs on one cache at once train every unit once; both report the same numbers and warn about too few examples per class', async () => {
    writeFileSync(join(dir, 'shared.json'), JSON.stringify(config('shared')));
    const cache = join(dir, 'cache-shared');
    const runs = [0, 1].map((i) => start(...node('--backend', 'cpu', 'run', join(dir, 'shared.json'), '--out', join(dir, `out-${i}`)), cache));
    const codes = await Promise.all(runs.map((r) => r.done));
    expect(codes, runs.map((r) => r.output.stderr).join('\n---\n')).toEqual([0, 0]);
    const trained = runs.flatMap((r) => r.output.stderr.split('\n').filter((l) => l.startsWith('trained ')));
    expect(trained).toHaveLength(4); // 2 defenses × target and shadow, across both processes
    // Each process got each of the 4 units once: trained it, or read it (after waiting for the other).
    for (const r of runs) expect(r.output.stderr.split('\n').filter((l) => /^(trained |cache hit )/.test(l))).toHaveLength(4);
    const results = [0, 1].map(
      (i) => JSON.parse(readFileSync(join(dir, `out-${i}`, 'results.json'), 'utf8')) as { rows: Array<{ testAccuracy: number; lossGap: number }> },
    );
    expect(results[1]!.rows.map((r) => [r.testAccuracy, r.lossGap])).toEqual(results[0]!.rows.map((r) => [r.testAccuracy, r.lossGap]));
    for (const r of runs)
      expect(r.output.stderr).toMatch(/^warning: too few examples per class: the target trains on 120 examples of 100 classes, 1\.2 per class on average/m);
    expect(claimFiles(cache)).toEqual([]);
  }, 300_000);

  it('warns on a diverged model; a bad YAML config shows the lines around the error; `reproduce --help` states the defaults', async () => {
    writeFileSync(
      join(dir, 'diverge.json'),
      JSON.stringify(config('diverge', { defenses: [{ name: 'none', label: 'undefended' }], training: { epochs: 2, batchSize: 32, lr: 1e6 } })),
    );
    const diverged = await runMia(['--backend', 'cpu', 'run', join(dir, 'diverge.json'), '--out', join(dir, 'out-diverge')], {
      env: { MIA_CACHE_DIR: join(dir, 'cache-diverge') },
      timeout: 240_000,
    });
    expect(diverged.status, diverged.stderr).toBe(0);
    expect(diverged.stderr).toMatch(
      /^warning: undefended target diverged: its mean loss on its own training set is \S+, worse than a uniform guess \(ln 100 = 4\.61\)/m,
    );
    expect(readFileSync(join(dir, 'out-diverge', 'report.md'), 'utf8')).toMatch(/> \*\*Warning:\*\* undefended target diverged/);

    writeFileSync(join(dir, 'bad.yaml'), 'name: bad\ndataset:\n  name: [purchaseLike\nmodel: mlp\n');
    const bad = await runMia(['run', join(dir, 'bad.yaml')], { timeout: 120_000 });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain(
      `mia: loadExperimentConfig: ${join(dir, 'bad.yaml')} is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 4, column 1:\n      name: [purchaseLike\n    model: mlp\n    ^\n`,
    );

    const help = await runMia(['reproduce', '--help'], { timeout: 120_000 });
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('(default: cpu)');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('(default: runs/<name>-<scale> for a paper reproduction, runs/<config name> for a shipped config)');
  }, 300_000);
});
