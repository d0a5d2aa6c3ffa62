#!/usr/bin/env node
// Release rehearsal that cannot publish: checks the changesets (`changeset status`), then runs
// `pnpm -r publish --dry-run` for every public package with no credentials at all (every
// *TOKEN*/*AUTH* variable removed, an empty npm user config) and the registry pointed at a closed
// loopback port, so even a publish without --dry-run would fail to connect. Checks that every
// public package (and no private one) would be published with its dist/ built.
// Run `pnpm build` first (`pnpm release:dry-run` does). Usage: node scripts/release-dry-run.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEAD_REGISTRY = 'http://127.0.0.1:9/'; // the discard port: nothing listens there
const fail = (message) => {
  console.error(`release:dry-run: ${message}`);
  process.exit(1);
};

const packages = readdirSync(join(root, 'packages')).map((dir) => ({
  dir,
  json: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')),
}));
const publicPackages = packages.filter((p) => p.json.private !== true);
for (const p of publicPackages) {
  if (!existsSync(join(root, 'packages', p.dir, 'dist'))) fail(`${p.json.name} has no dist/: run \`pnpm build\` first`);
}

const scratch = mkdtempSync(join(tmpdir(), 'mia-release-'));
const userconfig = join(scratch, 'npmrc');
writeFileSync(userconfig, '');
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/token|auth|password/i.test(k) && !/^npm_config_registry$/i.test(k)));
Object.assign(env, { npm_config_registry: DEAD_REGISTRY, npm_config_userconfig: userconfig, npm_config_fetch_retries: '0', NO_COLOR: '1' });
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
};

try {
  console.log('== changeset status');
  // `changeset status` compares with the base branch (`main`); a clone without a local `main`
  // (a detached CI checkout) compares with HEAD instead of failing on the missing ref.
  const hasMain = spawnSync('git', ['rev-parse', '--verify', '--quiet', 'main'], { cwd: root }).status === 0;
  const status = run(process.execPath, [join(root, 'node_modules', '@changesets', 'cli', 'bin.js'), 'status', ...(hasMain ? [] : ['--since=HEAD'])]);
  process.stdout.write(status.output);
  if (status.status !== 0) fail('`changeset status` failed: a changed package needs a changeset (`pnpm changeset`, or `pnpm changeset --empty`)');

  console.log(`== pnpm -r publish --dry-run (registry ${DEAD_REGISTRY}, no credentials)`);
  const publish = run('pnpm', ['-r', '--filter', './packages/*', 'publish', '--dry-run', '--no-git-checks', '--registry', DEAD_REGISTRY]);
  if (publish.status !== 0) {
    process.stdout.write(publish.output);
    fail(`pnpm publish --dry-run exited ${publish.status}`);
  }
  if (!publish.output.includes('(dry-run)')) fail('the publish output does not say (dry-run); refusing to trust it');
  const published = [...publish.output.matchAll(/^\+ (@mia\/[\w-]+)@(\S+)$/gm)].map((m) => `${m[1]}@${m[2]}`);
  const expected = publicPackages.map((p) => `${p.json.name}@${p.json.version}`);
  const missing = expected.filter((e) => !published.includes(e));
  const unexpected = published.filter((e) => !expected.includes(e));
  if (missing.length > 0 || unexpected.length > 0)
    fail(`dry run published [${published.join(', ')}]; missing [${missing.join(', ')}], unexpected [${unexpected.join(', ')}]`);
  const sizes = new Map(
    [...publish.output.matchAll(/npm notice name: (\S+)[\s\S]*?npm notice package size: ([^\n]+)[\s\S]*?npm notice total files: (\d+)/g)].map((m) => [
      m[1],
      `${m[2]}, ${m[3]} files`,
    ]),
  );
  for (const p of publicPackages) console.log(`  ${p.json.name}@${p.json.version}  ${sizes.get(p.json.name) ?? ''}`);
  console.log(`release:dry-run: ${published.length} packages would be published; nothing was (dry run, dead registry, no credentials)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
