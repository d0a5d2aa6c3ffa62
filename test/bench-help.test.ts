import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..');
const bench = (script: string, ...args: string[]) =>
  spawnSync(process.execPath, ['--conditions=@mia/source', '--import', 'tsx', join(root, 'bench', script), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });

describe('benchmark scripts', () => {
  it('`pnpm bench --help` and `bench/score-files.ts --help` print their usage and exit 0, running nothing', () => {
    const help = bench('run.ts', '--help');
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^usage: pnpm bench \[flags\]\n {2}--memory \| --models a,b --steps N/);
    expect(help.stdout).toContain('bench/score-files.ts --help');
    const scores = bench('score-files.ts', '-h');
    expect(scores.status, scores.stderr).toBe(0);
    expect(scores.stdout).toMatch(/^usage: node --conditions=@mia\/source --import tsx bench\/score-files.ts \[--rows N\] \[--keep\]\n/);
    const bad = bench('score-files.ts', '--rows', 'ten');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('score-files: --rows must be an integer ≥ 4, got "ten"');
  });
});
