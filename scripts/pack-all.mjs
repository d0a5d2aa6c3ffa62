#!/usr/bin/env node
// `pnpm pack:all [--out <dir>]`: an installable tarball of every public @mia/* package (default
// directory: tarballs/), for using the packages from a clone before they are on the registry:
// `npm install <dir>/*.tgz @tensorflow/tfjs`. Packs with `pnpm pack`, which turns the
// `workspace:^` ranges into the packages' versions (`npm pack` keeps them, and npm then cannot
// install the tarball); checks that no `workspace:` range is left. Builds nothing: the root script
// runs `turbo run build` first. Also used by scripts/test-packaging.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The public packages of packages/*, by name: their directory and package.json. */
export function publicPackages() {
  const packages = new Map();
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    const file = join(root, 'packages', dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    if (manifest.private !== true) packages.set(manifest.name, { dir: join(root, 'packages', dir), manifest });
  }
  return packages;
}

/**
 * Packs each named package into `outDir` with `pnpm pack`; returns name → tarball path.
 * @throws Error naming the package when it is not built, `pnpm pack` fails, or a `workspace:` range is left.
 */
export function packPackages(packages, names, outDir) {
  mkdirSync(outDir, { recursive: true });
  const tarballs = new Map();
  for (const name of names) {
    const { dir } = packages.get(name);
    if (!existsSync(join(dir, 'dist'))) throw new Error(`${name}: ${join(dir, 'dist')} does not exist; run \`pnpm build\` first`);
    const before = new Set(readdirSync(outDir));
    const r = spawnSync('pnpm', ['pack', '--pack-destination', outDir], { cwd: dir, encoding: 'utf8' });
    const created = readdirSync(outDir).filter((f) => !before.has(f) && f.endsWith('.tgz'));
    if (r.status !== 0 || created.length !== 1) throw new Error(`${name}: pnpm pack failed (exit ${r.status})\n${r.stdout}${r.stderr}`);
    const tarball = join(outDir, created[0]);
    const manifest = spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout;
    if (manifest.includes('workspace:')) throw new Error(`${name}: ${tarball} still has a workspace: range; npm could not install it`);
    tarballs.set(name, tarball);
  }
  return tarballs;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  const out = resolve(i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : join(root, 'tarballs'));
  const packages = publicPackages();
  try {
    const tarballs = packPackages(packages, [...packages.keys()], out);
    console.log(`pack:all: ${tarballs.size} tarballs in ${out}:`);
    for (const tarball of tarballs.values()) console.log(`  ${tarball}`);
    console.log(`\nIn your project: npm install ${join(out, '*.tgz')} @tensorflow/tfjs`);
  } catch (error) {
    console.error(`pack:all FAILED: ${error.message}`);
    process.exit(1);
  }
}
