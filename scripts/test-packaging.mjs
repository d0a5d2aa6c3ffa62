#!/usr/bin/env node
// Packaging smoke test: installs every public @mia/* package from its `pnpm pack` tarball into a
// fresh npm project outside the workspace (as a user would) and runs a tiny example against it;
// then installs all the tarballs with a plain @tensorflow/tfjs into one project and runs the README
// snippet and the installed `mia` bin there (scripts/packaging-user-project.mjs).
// Builds nothing: run `pnpm build` first. Usage: `pnpm test:packaging [name-filter... | user-project]`.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packPackages, publicPackages } from './pack-all.mjs';
import { testUserProject } from './packaging-user-project.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const rootDevDeps = readJson(join(root, 'package.json')).devDependencies ?? {};
const filters = process.argv.slice(2);

// Shared snippets of the examples (each example is a standalone .mjs file in its scratch project).
const CPU = `import * as tf from '@tensorflow/tfjs-core';\nimport '@tensorflow/tfjs-backend-cpu';\nawait tf.setBackend('cpu');\n`;
const assert = `const assert = (ok, msg) => { if (!ok) throw new Error('assertion failed: ' + msg); };\n`;
const trainWith = (imports, plugin) => `${CPU}${assert}import { sgd, train } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
${imports}
const data = syntheticClassification({ size: 64, numFeatures: 8, numClasses: 3, seed: 1 });
const model = tinyMlp({ inputDim: 8, hidden: [8], numClasses: 3 });
const plugin = ${plugin};
const { history } = await train(model, data, { epochs: 1, batchSize: 16, optimizer: sgd({ lr: 0.05 }), plugins: [plugin], progressBar: false });
assert(history.length === 1 && Number.isFinite(history[0].loss), 'one finite epoch, got ' + JSON.stringify(history));
console.log(plugin.name ?? 'plugin', 'loss', history[0].loss.toFixed(4));
`;

/** Example per package: a module that throws (non-zero exit) unless the package works. */
const EXAMPLES = {
  '@mia/metrics': `${assert}import { auc } from '@mia/metrics';
const v = auc([9, 9, 5, 5], [1, 0, 1, 0]);
assert(v === 0.5, 'auc([9,9,5,5],[1,0,1,0]) === 0.5, got ' + v);
console.log('auc', v);
`,
  '@mia/core': `${CPU}${assert}import { sgd, train } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';
const data = syntheticClassification({ size: 128, numFeatures: 8, numClasses: 3, seed: 1 });
const model = tinyMlp({ inputDim: 8, hidden: [16], numClasses: 3 });
const { history } = await train(model, data, { epochs: 2, batchSize: 16, optimizer: sgd({ lr: 0.1 }), progressBar: false });
const [a, b] = history.map((h) => h.loss);
assert(Number.isFinite(a) && b < a, 'loss decreases over 2 epochs, got ' + a + ' -> ' + b);
console.log('loss', a.toFixed(4), '->', b.toFixed(4));
`,
  '@mia/defense-ccl': `${CPU}${assert}import { cclLoss } from '@mia/defense-ccl';
const loss = cclLoss({ alpha: 0.5 })(tf.tensor1d([0, 2], 'int32'), tf.tensor2d([[2, 1, 0], [0, 1, -1]]));
const v = (await loss.data())[0];
assert(Number.isFinite(v), 'cclLoss is finite, got ' + v);
console.log('cclLoss', v);
`,
  '@mia/defense-dp': `${CPU}${assert}import { seededRandom } from '@mia/core';
import { dpSgdGradients, epsilonOf } from '@mia/defense-dp';
const { epsilon } = epsilonOf({ sampleRate: 0.04, noiseMultiplier: 1.5, steps: 2250, delta: 1e-5 });
assert(Math.abs(epsilon - 7.32911117143) < 1e-7, 'epsilonOf gives the Opacus test value 7.32911117143, got ' + epsilon);
const w = tf.variable(tf.tensor2d([[1, -2], [0.5, 3]]));
const x = tf.tensor2d([[1, 0], [0, 1], [3, 4]]);
const y = tf.tensor1d([0, 1, 1], 'int32');
const loss = (xb, yb) => tf.losses.softmaxCrossEntropy(tf.oneHot(yb, 2), tf.matMul(xb, w));
const { grads } = dpSgdGradients(loss, { x, y }, { variables: [w], clipNorm: 0.1, noiseMultiplier: 0, expectedBatchSize: 3, random: seededRandom(1) });
const norm = Math.hypot(...grads[w.name].dataSync());
assert(norm > 0 && norm <= 0.1 + 1e-6, 'the clipped mean gradient has norm in (0, C], got ' + norm);
console.log('epsilon', epsilon.toFixed(4), 'clipped gradient norm', norm.toFixed(4));
`,
  '@mia/data': `${assert}import { CCL4, purchaseLike } from '@mia/data';
const ds = purchaseLike({ size: 50 });
assert(ds.size === 50 && ds.y.length === 50 && ds.features.length === 50 * ds.numFeatures, 'purchaseLike has 50 rows, got ' + ds.size);
const roles = Object.values(CCL4.split(100, 0).roles);
const all = roles.flat();
assert(roles.length === 4 && all.length > 0 && new Set(all).size === all.length, 'CCL4 roles are disjoint');
console.log('rows', ds.size, 'roles', roles.map((r) => r.length).join('/'));
`,
  '@mia/models': `${CPU}${assert}import { createModel } from '@mia/models';
const model = createModel('mlp', { numClasses: 3, inputShape: [5] });
const { logits } = model.forward(tf.zeros([2, 5]), { training: false });
assert(JSON.stringify(logits.shape) === '[2,3]', 'logits shape [2,3], got ' + JSON.stringify(logits.shape));
console.log('logits shape', logits.shape);
`,
  '@mia/attacks': `${assert}import { metricAttack, signalsFromLogits } from '@mia/attacks';
const members = signalsFromLogits(new Float32Array([5, 0, 0, 0, 5, 0, 4, 1, 0, 0, 4, 1]), [0, 1, 0, 1], 3);
const nonMembers = signalsFromLogits(new Float32Array([0, 1, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0]), [0, 1, 0, 1], 3);
const attack = metricAttack('loss');
await attack.prepare({ members, nonMembers });
const mean = (s) => s.reduce((a, b) => a + b, 0) / s.length;
const [m, n] = [mean(attack.score(members)), mean(attack.score(nonMembers))];
assert(Number.isFinite(m) && m > n, 'members score higher than non-members, got ' + m + ' vs ' + n);
console.log('mean score members', m.toFixed(3), 'non-members', n.toFixed(3));
`,
  '@mia/defense-past': trainWith(
    `import { pastPlugin } from '@mia/defense-past';`,
    `pastPlugin({ lambda: 0.1, alpha: 0.5, nonMembers: syntheticClassification({ size: 32, numFeatures: 8, numClasses: 3, seed: 2 }) })`,
  ),
  '@mia/defense-crl': trainWith(`import { crlPlugin } from '@mia/defense-crl';`, `crlPlugin({ numClasses: 3, featureDim: model.featureDim })`),
  '@mia/sam': trainWith(`import { samPlugin } from '@mia/sam';`, `samPlugin({ rho: 0.05 })`),
  '@mia/defense-baselines': trainWith(`import { relaxLossPlugin } from '@mia/defense-baselines';`, `relaxLossPlugin({ alpha: 0.5 })`),
  '@mia/backend-wasm': `${assert}import * as tf from '@tensorflow/tfjs-core';
import { useWasmTraining } from '@mia/backend-wasm';
const { backend } = await useWasmTraining();
assert(backend === 'wasm' && tf.getBackend() === 'wasm', 'wasm backend active, got ' + tf.getBackend());
const w = tf.variable(tf.randomNormal([3, 3, 2, 4], 0, 1, 'float32', 1));
const x = tf.randomNormal([2, 8, 8, 2], 0, 1, 'float32', 2);
const { value, grads } = tf.variableGrads(() => tf.mean(tf.square(tf.conv2d(x, w, 1, 'same'))));
const g = await grads[w.name].data();
assert(g.length === 72 && g.every(Number.isFinite) && g.some((v) => v !== 0), 'finite non-zero conv gradient');
console.log('loss', (await value.data())[0].toFixed(4), '|grad|max', Math.max(...g.map(Math.abs)).toFixed(4));
`,
  // Requires the addon built at install (oneDNN and a compiler, as .ci/run installs them).
  '@mia/backend-native': `${assert}import * as tf from '@tensorflow/tfjs-core';
import { nativeKernelStats, nativeUnavailableReason, useNativeTraining } from '@mia/backend-native';
const why = nativeUnavailableReason();
assert(why === undefined, 'the native addon loads (apt-get install libdnnl-dev g++, then reinstall), got: ' + why);
const { addon } = await useNativeTraining();
const w = tf.variable(tf.randomNormal([3, 3, 2, 4], 0, 1, 'float32', 1));
const x = tf.randomNormal([2, 8, 8, 2], 0, 1, 'float32', 2);
const { grads } = tf.variableGrads(() => tf.mean(tf.square(tf.conv2d(x, w, 1, 'same'))));
const g = await grads[w.name].data();
assert(g.length === 72 && g.every(Number.isFinite) && g.some((v) => v !== 0), 'finite non-zero conv gradient');
const stats = nativeKernelStats().Conv2DBackpropFilter;
assert(stats !== undefined && stats.native >= 1, 'the filter gradient ran natively, got ' + JSON.stringify(stats));
console.log('oneDNN', addon.onednn, addon.isa, 'Conv2DBackpropFilter native', stats.native);
`,
  '@mia/experiments': `${assert}import { parseExperimentConfig } from '@mia/experiments';
const config = parseExperimentConfig({
  name: 'packaging', scale: 'smoke', seed: 1,
  dataset: { name: 'purchaseLike', size: 200 }, partition: { preset: 'CCL4', maxPerRole: 20 },
  model: { name: 'mlp' }, training: { epochs: 1, batchSize: 16, lr: 0.1 },
  defenses: [{ name: 'none', label: 'undefended' }], attacks: ['loss'],
});
assert(config.name === 'packaging' && config.training.epochs === 1, 'config parsed, got ' + JSON.stringify(config));
console.log('parsed config', config.name);
`,
};
/** Extra commands run in the scratch project after the example. */
const EXTRA = { '@mia/experiments': [['npx', ['--no-install', 'mia', '--help']]] };

let work; // the scratch root, kept on failure for inspection
function fail(message, output = '') {
  console.error(`\ntest:packaging FAILED: ${message}`);
  if (output.trim() !== '') console.error(output.trim());
  if (work !== undefined) console.error(`(scratch files kept in ${work})`);
  process.exit(1);
}

function run(cmd, args, cwd, env = process.env) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  return {
    ok: r.status === 0 && r.error === undefined,
    status: r.status,
    stdout: r.stdout ?? '',
    output: `${r.error ? `${r.error}\n` : ''}${r.stdout ?? ''}${r.stderr ?? ''}`,
  };
}

/** The size in bytes of a directory tree (symlinks counted as links). */
function treeSize(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? treeSize(path) : lstatSync(path).size;
  }
  return total;
}

/** The number of installed packages in a node_modules tree (nested ones included). */
function countPackages(nodeModules) {
  if (!existsSync(nodeModules)) return 0;
  let count = 0;
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dirs = entry.name.startsWith('@')
      ? readdirSync(join(nodeModules, entry.name)).map((n) => join(nodeModules, entry.name, n))
      : [join(nodeModules, entry.name)];
    for (const dir of dirs) {
      if (!existsSync(join(dir, 'package.json'))) continue;
      count += 1 + countPackages(join(dir, 'node_modules'));
    }
  }
  return count;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// 1. Discover the public packages and check they are built.
const packages = publicPackages();
for (const [name, { dir }] of packages) {
  if (!existsSync(join(dir, 'dist'))) fail(`${name}: ${join(dir, 'dist')} does not exist. Run \`pnpm build\` first (this script builds nothing).`);
  if (EXAMPLES[name] === undefined) fail(`${name}: no example defined in scripts/test-packaging.mjs; add one`);
}
const selected = [...packages.keys()].filter((n) => filters.length === 0 || filters.some((f) => n.includes(f)));
const userProject = filters.length === 0 || filters.includes('user-project');

/** The package plus its @mia/* dependencies, transitively. */
function closure(name, seen = new Set()) {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const dep of Object.keys(packages.get(name).manifest.dependencies ?? {})) {
    if (dep.startsWith('@mia/')) {
      if (!packages.has(dep)) fail(`${name}: depends on ${dep}, which is not a public package of packages/*`);
      closure(dep, seen);
    }
  }
  return seen;
}

// npm gets a clean environment: no pnpm-injected npm_* variables (keep registry/proxy/cache settings).
const keep = /^npm_config_(registry|cache|https?_proxy|proxy|noproxy|strict_ssl|cafile|userconfig)$/i;
const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm|pnpm)_/i.test(k) || keep.test(k)));
npmEnv.npm_config_update_notifier = 'false';

const started = Date.now();
work = mkdtempSync(join(tmpdir(), 'mia-packaging-'));
const tarDir = join(work, 'tarballs');
mkdirSync(tarDir);
console.log(`test:packaging: ${selected.length} public packages, scratch dir ${work}`);

// 2. Pack every package needed by the selection (all of them for the user project).
const needed = new Set(userProject ? packages.keys() : selected.flatMap((n) => [...closure(n)]));
let tarballs;
try {
  tarballs = packPackages(
    packages,
    [...packages.keys()].filter((n) => needed.has(n)),
    tarDir,
  );
} catch (error) {
  fail(error.message);
}

// 3. One scratch project per package, sequentially.
const rows = [];
for (const name of selected) {
  const t0 = Date.now();
  const deps = closure(name);
  const peers = new Map();
  for (const dep of deps) {
    for (const [peer, range] of Object.entries(packages.get(dep).manifest.peerDependencies ?? {})) {
      if (!peer.startsWith('@mia/')) peers.set(peer, rootDevDeps[peer] ?? range);
    }
  }
  // A backend so the example can run, for packages that work on tensors (pinned like the workspace).
  if (peers.has('@tensorflow/tfjs-core')) peers.set('@tensorflow/tfjs-backend-cpu', rootDevDeps['@tensorflow/tfjs-backend-cpu'] ?? '4.22.0');
  const project = join(work, name.replace('@mia/', 'scratch-'));
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'mia-packaging-scratch', private: true, type: 'module' }, null, 2)}\n`);
  writeFileSync(join(project, 'example.mjs'), EXAMPLES[name]);
  const specs = [...[...deps].map((d) => tarballs.get(d)), ...[...peers].map(([p, v]) => `${p}@${v}`)];
  const install = run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs], project, npmEnv);
  if (!install.ok) fail(`${name}: npm install ${specs.join(' ')} failed (exit ${install.status})`, install.output);
  const example = run(process.execPath, ['example.mjs'], project, npmEnv);
  if (!example.ok) fail(`${name}: example failed (exit ${example.status}); the example is ${join(project, 'example.mjs')}`, example.output);
  const notes = [example.stdout.trim().split('\n').at(-1)];
  for (const [cmd, args] of EXTRA[name] ?? []) {
    const r = run(cmd, args, project, npmEnv);
    if (!r.ok) fail(`${name}: \`${cmd} ${args.join(' ')}\` failed (exit ${r.status})`, r.output);
    notes.push(`${cmd} ${args.at(-2)} ${args.at(-1)}: ok`);
  }
  const row = {
    name,
    tarball: statSync(tarballs.get(name)).size,
    nodeModules: treeSize(join(project, 'node_modules')),
    installed: countPackages(join(project, 'node_modules')),
    seconds: (Date.now() - t0) / 1000,
  };
  rows.push(row);
  console.log(
    `ok  ${name.padEnd(24)} tarball ${kb(row.tarball).padStart(9)}  node_modules ${mb(row.nodeModules).padStart(8)}  ${String(row.installed).padStart(3)} packages  ${row.seconds.toFixed(1)} s  | ${notes.join(' | ')}`,
  );
  rmSync(project, { recursive: true, force: true });
}

// 4. A user's project: every tarball and a plain @tensorflow/tfjs; the README snippet and the mia bin.
if (userProject) {
  const t0 = Date.now();
  const tfjsVersion =
    readJson(join(root, 'examples', 'browser-ccl', 'package.json')).dependencies?.['@tensorflow/tfjs'] ?? rootDevDeps['@tensorflow/tfjs-core'];
  try {
    const notes = await testUserProject({ root, project: join(work, 'scratch-user-project'), tarballs: [...tarballs.values()], tfjsVersion, run, env: npmEnv });
    console.log(
      `ok  ${'user project'.padEnd(24)} ${tarballs.size} tarballs + @tensorflow/tfjs@${tfjsVersion}  ${((Date.now() - t0) / 1000).toFixed(1)} s  | ${notes.join(' | ')}`,
    );
  } catch (error) {
    fail(`user project (${join(work, 'scratch-user-project')}): ${error.message}`);
  }
}

rmSync(work, { recursive: true, force: true });
console.log(
  `\ntest:packaging: ${rows.length}/${selected.length} packages${userProject ? ' and the user project' : ''} passed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
