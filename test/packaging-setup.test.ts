import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// What makes the packages usable from a clone (the installs themselves run in `pnpm test:packaging`).
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'mia-packaging-setup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const manifests = readdirSync(join(root, 'packages')).map((dir) => ({
  dir,
  json: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as { name: string; bin?: Record<string, string> },
}));

describe('packaging setup', () => {
  it('building one package builds the packages it depends on first (turbo build dependsOn ^build)', () => {
    const r = spawnSync(join(root, 'node_modules', '.bin', 'turbo'), ['run', 'build', '--filter=@mia/defense-ccl', '--dry=json'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const tasks = (JSON.parse(r.stdout) as { tasks: Array<{ taskId: string; dependencies: string[] }> }).tasks;
    expect(tasks.map((t) => t.taskId).sort()).toEqual(['@mia/core#build', '@mia/defense-ccl#build']);
    expect(tasks.find((t) => t.taskId === '@mia/defense-ccl#build')!.dependencies).toEqual(['@mia/core#build']);
  });

  it('every bin is a committed file, so installing a fresh clone (before any build) links it without a warning', () => {
    const tracked = new Set(spawnSync('git', ['ls-files', 'packages'], { cwd: root, encoding: 'utf8' }).stdout.split('\n'));
    const bins = manifests.flatMap((m) => Object.entries(m.json.bin ?? {}).map(([name, path]) => ({ name, file: join('packages', m.dir, path) })));
    expect(bins.map((b) => b.name)).toEqual(['mia']);
    for (const b of bins) expect(tracked.has(b.file.replace(/\/\.\//g, '/')), `${b.file} is not committed`).toBe(true);
  });

  it('the mia launcher says what to do when @mia/experiments is not built', () => {
    mkdirSync(join(scratch, 'bin'));
    writeFileSync(join(scratch, 'package.json'), '{"type": "module"}'); // as in @mia/experiments, without its dist/
    cpSync(join(root, 'packages', 'experiments', 'bin', 'mia.js'), join(scratch, 'bin', 'mia.js'));
    const r = spawnSync(process.execPath, [join(scratch, 'bin', 'mia.js'), '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'mia: @mia/experiments is not built (dist/cli.js is missing). In the repository, run `pnpm build`, or use `pnpm mia …`, which runs the sources.\n',
    );
  });
});
