import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// Runs the README's first ```ts block as a user would: its own script, importing
// `@tensorflow/tfjs` and `@mia/defense-dp` by name (the package resolves itself through its
// exports, and to src/ through the `@mia/source` condition).
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(root, '.readme-run-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('README', () => {
  it('the plain-tfjs snippet runs and prints the ε it reached', async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const code = /```ts\n([\s\S]*?)\n```/.exec(readme)?.[1];
    expect(code).toContain('dpSgdTapedGradients(');
    const file = join(work, 'snippet.ts');
    writeFileSync(file, `${code}\n`);
    const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=@mia/source', '--import', 'tsx', file], { cwd: work, timeout: 110_000 });
    // targetEpsilon 8 was asked for: noiseMultiplierFor lands within 0.01 below it.
    const match = /σ = ([\d.]+): \(([\d.]+), 0\.00001\)-DP/.exec(stdout);
    expect(match, stdout).not.toBeNull();
    expect(Number(match![2])).toBeGreaterThan(7.98);
    expect(Number(match![2])).toBeLessThanOrEqual(8);
  });
});
