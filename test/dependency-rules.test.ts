// Enforces the package dependency rules (each `it` below states one) by reading every
// workspace package.json and scanning the import statements of every non-test source file.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..');
interface Pkg {
  dir: string;
  name: string;
  private: boolean;
  deps: string[];
  peers: string[];
  devDeps: string[];
}

function readPackages(folder: string): Pkg[] {
  const base = join(root, folder);
  if (!existsSync(base)) return [];
  return readdirSync(base)
    .filter((d) => existsSync(join(base, d, 'package.json')))
    .map((d) => {
      const pj = JSON.parse(readFileSync(join(base, d, 'package.json'), 'utf8'));
      return {
        dir: join(base, d),
        name: pj.name,
        private: pj.private === true,
        deps: Object.keys(pj.dependencies ?? {}),
        peers: Object.keys(pj.peerDependencies ?? {}),
        devDeps: Object.keys(pj.devDependencies ?? {}),
      };
    });
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'testing' || entry === 'test-utils' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry) && !/\.test\.ts$/.test(entry) ? [path] : [];
  });
}

/** Static import/export-from specifiers and literal dynamic imports. */
function importsOf(file: string): string[] {
  // Comments may mention packages ("loads @mia/backend-wasm from …"); only code counts.
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/g)) out.push(m[1]!);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) out.push(m[1]!);
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out;
}

const packages = readPackages('packages');
const publicPackages = packages.filter((p) => !p.private);
const DEFENSES = ['@mia/defense-past', '@mia/defense-ccl', '@mia/defense-crl', '@mia/defense-dp', '@mia/sam', '@mia/defense-baselines'];
const BACKEND_IMPORT = /^@tensorflow\/(tfjs|tfjs-node|tfjs-node-gpu|tfjs-backend-[a-z]+)(\/|$)/;

function allowedMiaDeps(name: string): Set<string> | 'any' {
  if (name === '@mia/experiments') return 'any';
  if (name === '@mia/metrics' || name === '@mia/core') return new Set();
  // Attacks and defenses may use the pure-TypeScript metrics (no tfjs): one Gini, one set of
  // sensitivity statistics (docs/decisions/0039-defenses-may-use-metrics.md).
  if (name === '@mia/attacks' || DEFENSES.includes(name)) return new Set(['@mia/core', '@mia/metrics']);
  // The native kernels sit on top of the wasm backend (its heap, its kernels as the fallback).
  if (name === '@mia/backend-native') return new Set(['@mia/core', '@mia/backend-wasm']);
  return new Set(['@mia/core']);
}

describe('package dependency rules', () => {
  it('finds the workspace packages', () => {
    expect(packages.map((p) => p.name)).toEqual(expect.arrayContaining(['@mia/core', '@mia/metrics', '@mia/attacks']));
  });

  it('@mia/metrics depends on nothing; @mia/core only on tfjs peers', () => {
    const metrics = packages.find((p) => p.name === '@mia/metrics')!;
    expect([...metrics.deps, ...metrics.peers]).toEqual([]);
    const core = packages.find((p) => p.name === '@mia/core')!;
    expect(core.deps).toEqual([]);
    expect(core.peers.every((p) => p.startsWith('@tensorflow/'))).toBe(true);
  });

  it('tfjs is a peer dependency, never a regular dependency', () => {
    const offenders = packages.flatMap((p) => p.deps.filter((d) => d.startsWith('@tensorflow/')).map((d) => `${p.name} -> ${d}`));
    expect(offenders).toEqual([]);
  });

  it('each package depends on the @mia packages it may use, and nothing else', () => {
    const offenders: string[] = [];
    for (const p of publicPackages) {
      const allowed = allowedMiaDeps(p.name);
      if (allowed === 'any') continue;
      for (const d of [...p.deps, ...p.peers].filter((d) => d.startsWith('@mia/'))) if (!allowed.has(d)) offenders.push(`${p.name} -> ${d}`);
    }
    expect(offenders).toEqual([]);
  });

  it('no source file imports a backend or the tfjs union package (except the backend packages and experiments)', () => {
    const offenders: string[] = [];
    for (const p of publicPackages) {
      if (p.name === '@mia/backend-wasm' || p.name === '@mia/backend-native' || p.name === '@mia/experiments') continue;
      for (const file of sourceFiles(join(p.dir, 'src'))) {
        for (const spec of importsOf(file)) if (BACKEND_IMPORT.test(spec)) offenders.push(`${relative(root, file)} imports ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('source imports of @mia packages are declared, defenses import no defense or attack, attacks never import models', () => {
    const offenders: string[] = [];
    for (const p of publicPackages) {
      for (const file of sourceFiles(join(p.dir, 'src'))) {
        for (const spec of importsOf(file).filter((s) => s.startsWith('@mia/'))) {
          const target = spec.split('/').slice(0, 2).join('/');
          if (target === p.name) continue;
          if (!p.deps.includes(target) && !p.peers.includes(target)) offenders.push(`${relative(root, file)} imports undeclared ${target}`);
          if (DEFENSES.includes(p.name) && (DEFENSES.includes(target) || target === '@mia/attacks'))
            offenders.push(`${relative(root, file)}: defense imports ${target}`);
          if (p.name === '@mia/attacks' && target === '@mia/models') offenders.push(`${relative(root, file)}: attacks import models`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the workspace dependency graph has no cycle', () => {
    const graph = new Map(packages.map((p) => [p.name, [...p.deps, ...p.peers].filter((d) => d.startsWith('@mia/'))]));
    const state = new Map<string, 'visiting' | 'done'>();
    const cycles: string[] = [];
    const visit = (name: string, path: string[]) => {
      if (state.get(name) === 'done') return;
      if (state.get(name) === 'visiting') {
        cycles.push([...path, name].join(' -> '));
        return;
      }
      state.set(name, 'visiting');
      for (const d of graph.get(name) ?? []) visit(d, [...path, name]);
      state.set(name, 'done');
    };
    for (const name of graph.keys()) visit(name, []);
    expect(cycles).toEqual([]);
  });
});
