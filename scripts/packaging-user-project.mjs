// Part of `pnpm test:packaging`: what a new user does with the packages before they are on the
// registry. One npm project outside the repository gets every tarball (as `pnpm pack:all` writes
// them) and a plain `@tensorflow/tfjs`, then: the root README's snippet runs unchanged, and the
// installed `mia` bin runs `--help`, `run my.yaml`, `attack --scores`, a queue sweep with
// `mia worker` (when redis-server is installed), and exits non-zero on Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The first ```ts block of the README section "Add one defense to your own tfjs model". */
function readmeSnippet(root) {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Add one defense to your own tfjs model'));
  const code = section === undefined ? undefined : /```ts\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (code === undefined) throw new Error('README.md: no ```ts block under "## Add one defense to your own tfjs model"');
  return code;
}

/**
 * The first ```ts block of a package's README, as the plain JavaScript a user's .mjs file would hold:
 * TypeScript's `) as T` casts are dropped (the only TypeScript syntax those snippets use).
 */
function packageReadmeSnippet(root, dir) {
  const readme = readFileSync(join(root, 'packages', dir, 'README.md'), 'utf8');
  const code = /```ts\n([\s\S]*?)\n```/.exec(readme)?.[1];
  if (code === undefined) throw new Error(`packages/${dir}/README.md: no \`\`\`ts block`);
  return code.replace(/\)\s+as\s+[\w.]+(\[\])?/g, ')');
}

const tiny = (name, epochs, extra = '', more = '') => `name: ${name}
scale: smoke
seed: 1
dataset: { name: purchaseLike, size: 600 }
partition: { preset: CCL4, maxPerRole: 100 }
model: { name: mlp, options: { hidden: [16] } }
training: { epochs: ${epochs}, batchSize: 25, lr: 0.1 }
defenses:
  - { name: none, label: undefended }
  - { name: ccl, label: CCQL, params: { alpha: 0.5, concave: quadratic }${extra} }
${more}attacks: [loss, confidence]
`;

async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

/** Starts a command in its own process group; collects its output. */
function start(cmd, args, cwd, env) {
  const proc = spawn(cmd, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { text: '' };
  proc.stdout.on('data', (c) => (out.text += c));
  proc.stderr.on('data', (c) => (out.text += c));
  const done = new Promise((resolve) => proc.on('close', (code, signal) => resolve({ code, signal })));
  return { proc, out, done };
}

async function until(what, ok, ms, out) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}; output:\n${out.text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs the user-project checks in `project` (created here). `run(cmd, args, cwd, env)` is the
 * caller's spawnSync wrapper; throws with the output on the first failure. Returns one-line notes.
 */
export async function testUserProject({ root, project, tarballs, tfjsVersion, run, env }) {
  mkdirSync(project, { recursive: true });
  const notes = [];
  const must = (what, r) => {
    if (!r.ok) throw new Error(`${what} failed (exit ${r.status})\n${r.output}`);
    return r;
  };
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'my-tfjs-project', private: true, type: 'module' }, null, 2)}\n`);
  must(
    'npm install of every tarball and @tensorflow/tfjs',
    run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs, `@tensorflow/tfjs@${tfjsVersion}`], project, env),
  );
  writeFileSync(join(project, 'readme-snippet.mjs'), `${readmeSnippet(root)}\n`);
  must('the README snippet', run(process.execPath, ['readme-snippet.mjs'], project, env));
  notes.push('README snippet ran');
  // @mia/defense-dp's plain-tfjs snippet (DP-SGD in a hand-written loop, the accountant's ε).
  writeFileSync(join(project, 'dp-readme-snippet.mjs'), `${packageReadmeSnippet(root, 'defense-dp')}\n`);
  const dp = must('the @mia/defense-dp README snippet', run(process.execPath, ['dp-readme-snippet.mjs'], project, env));
  if (!/σ = [\d.]+: \([\d.]+, 0\.00001\)-DP/.test(dp.stdout)) throw new Error(`the @mia/defense-dp README snippet printed no ε\n${dp.output}`);
  notes.push('defense-dp README snippet ran');

  const cacheEnv = { ...env, MIA_CACHE_DIR: join(project, 'cache') };
  const mia = (...args) => run('npx', ['--no-install', 'mia', ...args], project, cacheEnv);
  if (!/Commands:[\s\S]*run[\s\S]*worker/.test(must('npx mia --help', mia('--help')).stdout)) throw new Error('npx mia --help lists no commands');
  const dpDefense = '  - { name: dp-sgd, label: DP, params: { clipNorm: 1, noiseMultiplier: 1, delta: 0.00001, sampleRate: 0.25 } }\n';
  writeFileSync(join(project, 'my.yaml'), tiny('my-run', 2, '', dpDefense));
  const ran = must('npx mia run my.yaml', mia('run', 'my.yaml', '--out', 'runs/my'));
  if (!existsSync(join(project, 'runs/my/report.html')) || !/my-run .*backend/.test(ran.stdout)) throw new Error(`npx mia run wrote no report\n${ran.output}`);
  if (!/ DP .* DP ε \d+\.\d\d \(δ 0\.00001\)/.test(ran.stdout)) throw new Error(`npx mia run: no DP ε in the summary of the dp-sgd row\n${ran.output}`);
  notes.push(`mia run: ${/backend (\w+)/.exec(ran.stdout)?.[1]} backend`);
  const n = 30;
  const losses = Array.from({ length: 2 * n }, (_, i) => (i < n ? 0.01 * i : 0.01 * (i - n) + 0.2));
  writeFileSync(join(project, 'scores.json'), JSON.stringify({ labels: losses.map(() => 0), isMember: losses.map((_, i) => (i < n ? 1 : 0)), losses }));
  const audit = JSON.parse(must('npx mia attack --scores', mia('attack', '--scores', 'scores.json', '--json')).stdout);
  const auc = audit.rows.find((r) => r.attack === 'loss')?.auc;
  // Members' losses 0.00–0.29, non-members' 0.20–0.49: they overlap in [0.20, 0.29], so 0.9 < AUC < 1.
  if (!(auc > 0.9 && auc < 1)) throw new Error(`npx mia attack: loss AUC ${auc}, expected in (0.9, 1)`);
  notes.push(`mia attack: AUC ${auc.toFixed(3)}`);

  // Ctrl-C on the installed bin (npx → the launcher → the CLI): never a success exit.
  writeFileSync(join(project, 'long.yaml'), tiny('long-run', 500));
  const long = start('npx', ['--no-install', 'mia', 'run', 'long.yaml'], project, { ...cacheEnv, MIA_CACHE_DIR: join(project, 'cache-long') });
  await until('training to start', () => /training {3}undefended\/target/.test(long.out.text), 120_000, long.out);
  process.kill(-long.proc.pid, 'SIGINT');
  const stopped = await long.done;
  if (stopped.code === 0 || (stopped.code === null && stopped.signal === null)) throw new Error(`npx mia run exited 0 after Ctrl-C\n${long.out.text}`);
  notes.push(`Ctrl-C: ${stopped.code ?? stopped.signal}`);

  if (spawnSync('redis-server', ['--version']).status !== 0) {
    const r = mia('worker', '--queue', `redis://127.0.0.1:${await freePort()}`, '--artifacts', 'cache/models');
    if (r.ok || !/cannot reach Redis/.test(r.output)) throw new Error(`npx mia worker without Redis: expected "cannot reach Redis"\n${r.output}`);
    notes.push('mia worker: clear error (no redis-server here for a real sweep)');
    return notes;
  }
  const port = await freePort();
  const redis = start('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], project, env);
  const worker = start(
    'npx',
    ['--no-install', 'mia', 'worker', '--queue', `redis://127.0.0.1:${port}`, '--artifacts', join(project, 'cache', 'models')],
    project,
    cacheEnv,
  );
  try {
    await until('redis-server', () => /Ready to accept connections/.test(redis.out.text), 20_000, redis.out);
    writeFileSync(join(project, 'sweep.yaml'), tiny('my-sweep', 2, ', grid: { alpha: [0.3, 0.7] }'));
    const sweep = must('npx mia sweep --queue', mia('sweep', 'sweep.yaml', '--queue', `redis://127.0.0.1:${port}`, '--out', 'runs/sweep'));
    if (!/CCQL alpha=0.7/.test(sweep.stdout)) throw new Error(`the queue sweep wrote no result\n${sweep.output}`);
    // The sweep ran synchronously: let the worker's output in before reading it.
    await until('the worker to report its trainings', () => (worker.out.text.match(/^trained\s+\S/gm) ?? []).length >= 4, 20_000, worker.out);
    process.kill(-worker.proc.pid, 'SIGTERM');
    const end = await Promise.race([worker.done, new Promise((r) => setTimeout(() => r({ code: 'timeout' }), 60_000))]);
    // npx itself dies of the group's SIGTERM; the worker under it must have stopped gracefully.
    if (end.code === 'timeout' || !/^worker stopped$/m.test(worker.out.text))
      throw new Error(`mia worker did not stop cleanly on SIGTERM (${end.code ?? end.signal})\n${worker.out.text}`);
    notes.push('mia worker: trained a queue sweep');
  } finally {
    for (const p of [worker.proc, redis.proc]) if (p.exitCode === null && p.signalCode === null) process.kill(-p.pid, 'SIGKILL');
  }
  return notes;
}
