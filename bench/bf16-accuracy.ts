// Accuracy of bf16 training against fp32, paired by seed: the anchor model of the reproductions
// (ResNet-18 with torchvision's stem at width 32 on 5,000 CIFAR-10 members, 30 epochs, batch 128, SGD
// momentum 0.9, wd 5e-4, cosine from lr 0.05, no augmentation: the CIFAR-10 column of the PAST and CCL
// Table 1 cpu plans, undefended) trained once per precision and training seed, each in a fresh process
// with MIA_PRECISION set, then attacked with the CCL Table 1 attacks (one shadow model per precision,
// shared by the seeds). Prints and writes a Markdown table: train and test accuracy, the best attack's
// advantage (TPR − FPR) with its bootstrap SE, per seed and precision, and the paired differences.
//
//   MIA_CACHE_DIR=<dir> node --conditions=@mia/source --import tsx bench/bf16-accuracy.ts [--seeds 0,1,2] [--precisions fp32,bf16] [--out bf16-accuracy-<date>] [--epochs 30] [--parallel]
//
// --parallel runs the precisions of a seed at the same time, one native thread each (MIA_NUM_THREADS=1),
// instead of one after the other on every core: on a shared machine the OpenMP threads of one process
// then never wait for each other. The numbers are the same up to the last bits of the thread count.
//
// Needs CIFAR-10 in the cache (`mia datasets fetch cifar10`) and the native addon; bf16 needs a CPU
// with bf16 dot products. Models are cached under MIA_CACHE_DIR like any run (fp32 and bf16 apart).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { nativeBackendInfo } from '@mia/backend-native';
import { initDefaultBackend, parseExperimentConfig, runExperiment, writeReport } from '@mia/experiments';

interface Outcome {
  precision: string;
  seed: number;
  trainAccuracy: number;
  testAccuracy: number;
  bestAttack: string;
  advantage: number;
  advantageSe: number;
  trainSeconds: number;
  seconds: number;
  cache: string;
  isa: string;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

function config(seed: number, epochs: number) {
  return parseExperimentConfig({
    name: `bf16-accuracy-seed-${seed}`,
    description: 'The anchor ResNet-18 (torchvision stem, width 32) undefended, for the bf16 accuracy comparison',
    scale: 'cpu',
    seed: 0,
    trainingSeed: seed,
    dataset: { name: 'cifar10' },
    partition: { preset: 'CCL4', maxPerRole: 5000, validation: 1000 },
    model: { name: 'resnet18', options: { stem: 'imagenet', width: 32 } },
    training: { epochs, batchSize: 128, optimizer: 'sgd', lr: 0.05, momentum: 0.9, weightDecay: 5e-4, schedule: { type: 'cosine' } },
    defenses: [{ name: 'none', label: 'w/o' }],
    attacks: ['correctness', 'loss', 'confidence', 'entropy', 'modifiedEntropy', 'nn-mlh', 'rotation', 'translation'],
    shadowModels: 1,
    shadowSeed: 'partition',
  });
}

/** Child: one training seed in the precision MIA_PRECISION sets; prints its Outcome as the last line. */
async function child(seed: number, epochs: number, out: string): Promise<void> {
  const precision = process.env['MIA_PRECISION'] ?? 'fp32';
  const { name: backend } = await initDefaultBackend({ prefer: ['native'] });
  const info = nativeBackendInfo();
  if (backend !== 'native' || info.precision !== precision) throw new Error(`bf16-accuracy: wanted native ${precision}, got ${backend} ${info.precision}`);
  const results = await runExperiment(config(seed, epochs), { onLog: (line) => process.stderr.write(`${line}\n`) });
  await writeReport({ ...results, command: `MIA_PRECISION=${precision} node --conditions=@mia/source --import tsx bench/bf16-accuracy.ts` }, out);
  const row = results.rows[0]!;
  const best = [...row.attacks].sort((a, b) => b.advantage - a.advantage)[0]!;
  const outcome: Outcome = {
    precision,
    seed,
    trainAccuracy: row.trainAccuracy,
    testAccuracy: row.testAccuracy,
    bestAttack: best.attack,
    advantage: best.advantage,
    advantageSe: row.se?.attacks?.[best.attack]?.advantage ?? NaN,
    trainSeconds: row.trainSeconds ?? NaN,
    seconds: results.seconds,
    cache: `${row.cache.target}/${row.cache.shadow}`,
    isa: info.isa,
  };
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
}

const pct = (v: number): string => (100 * v).toFixed(2);
const signed = (v: number): string => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(2)}`;

function table(outcomes: Outcome[], precisions: string[]): string {
  const [a, b] = precisions as [string, string];
  const lines = [
    `| seed | precision | train acc % | test acc % | best attack | advantage % (± SE) | train s | cache target/shadow |`,
    '|---|---|---|---|---|---|---|---|',
    ...outcomes.map(
      (o) =>
        `| ${o.seed} | ${o.precision} | ${pct(o.trainAccuracy)} | ${pct(o.testAccuracy)} | ${o.bestAttack} | ${pct(o.advantage)} (± ${pct(o.advantageSe)}) | ${o.trainSeconds.toFixed(0)} | ${o.cache} |`,
    ),
  ];
  if (b === undefined) return lines.join('\n');
  const seeds = [...new Set(outcomes.map((o) => o.seed))];
  const pairs = seeds
    .map((s) => [outcomes.find((o) => o.seed === s && o.precision === b), outcomes.find((o) => o.seed === s && o.precision === a)] as const)
    .filter((p): p is readonly [Outcome, Outcome] => p[0] !== undefined && p[1] !== undefined);
  const mean = (f: (x: readonly [Outcome, Outcome]) => number): number => pairs.reduce((s, p) => s + f(p), 0) / pairs.length;
  const sd = (f: (x: readonly [Outcome, Outcome]) => number): number => {
    const m = mean(f);
    return Math.sqrt(pairs.reduce((s, p) => s + (f(p) - m) ** 2, 0) / Math.max(1, pairs.length - 1));
  };
  const diff = (key: 'trainAccuracy' | 'testAccuracy' | 'advantage') => (p: readonly [Outcome, Outcome]) => 100 * (p[0][key] - p[1][key]);
  lines.push(
    '',
    `Paired by seed, ${b} − ${a} (percentage points):`,
    '',
    '| seed | Δ train acc | Δ test acc | Δ best advantage | train s ratio |',
    '|---|---|---|---|---|',
  );
  for (const p of pairs)
    lines.push(
      `| ${p[0].seed} | ${signed(diff('trainAccuracy')(p))} | ${signed(diff('testAccuracy')(p))} | ${signed(diff('advantage')(p))} | ${(p[0].trainSeconds / p[1].trainSeconds).toFixed(2)} |`,
    );
  lines.push(
    `| mean (sd over seeds) | ${signed(mean(diff('trainAccuracy')))} (${sd(diff('trainAccuracy')).toFixed(2)}) | ${signed(mean(diff('testAccuracy')))} (${sd(diff('testAccuracy')).toFixed(2)}) | ${signed(mean(diff('advantage')))} (${sd(diff('advantage')).toFixed(2)}) | |`,
  );
  // The seed-to-seed spread within one precision: the noise the differences are compared with.
  for (const p of precisions) {
    const of = outcomes.filter((o) => o.precision === p);
    const spread = (key: 'trainAccuracy' | 'testAccuracy' | 'advantage'): string => {
      const v = of.map((o) => 100 * o[key]);
      const m = v.reduce((s, x) => s + x, 0) / v.length;
      return Math.sqrt(v.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, v.length - 1)).toFixed(2);
    };
    lines.push(
      '',
      `${p}: sd over seeds of train acc ${spread('trainAccuracy')}, test acc ${spread('testAccuracy')}, best advantage ${spread('advantage')} points.`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') return child(Number(process.argv[3]), Number(process.argv[4]), process.argv[5]!);
  const seeds = arg('seeds', '0,1,2').split(',').map(Number);
  const precisions = arg('precisions', 'fp32,bf16').split(',');
  const epochs = Number(arg('epochs', '30'));
  const name = arg('out', `bf16-accuracy-${new Date().toISOString().slice(0, 10)}`);
  const dir = fileURLToPath(new URL(`./results/${name}/`, import.meta.url));
  mkdirSync(dir, { recursive: true });
  const script = fileURLToPath(import.meta.url);
  const parallel = process.argv.includes('--parallel');
  const outcomes: Outcome[] = [];
  const runOne = (seed: number, precision: string): Promise<Outcome> =>
    new Promise((resolve, reject) => {
      const started = Date.now();
      const env = { ...process.env, MIA_PRECISION: precision, ...(parallel ? { MIA_NUM_THREADS: '1' } : {}) };
      const proc = spawn(process.execPath, [...process.execArgv, script, '--child', String(seed), String(epochs), `${dir}${precision}-seed-${seed}`], {
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let stdout = '';
      proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      proc.on('close', (code, signal) => {
        const last = stdout.trim().split('\n').pop() ?? '';
        if (code !== 0 || !last.startsWith('{')) return reject(new Error(`bf16-accuracy: seed ${seed} ${precision} failed (exit ${code ?? signal})`));
        const o = JSON.parse(last) as Outcome;
        process.stdout.write(
          `seed ${seed} ${precision}: train ${pct(o.trainAccuracy)} % test ${pct(o.testAccuracy)} % best ${o.bestAttack} ${pct(o.advantage)} % (${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
        );
        resolve(o);
      });
    });
  // Seed by seed, the precisions alternating (or side by side), so both share the machine's load.
  for (const seed of seeds) {
    if (parallel) outcomes.push(...(await Promise.all(precisions.map((p) => runOne(seed, p)))));
    else for (const precision of precisions) outcomes.push(await runOne(seed, precision));
  }
  const text = [
    `# bf16 against fp32 training: the anchor ResNet-18 on CIFAR-10 — ${new Date().toISOString()}`,
    '',
    `\`MIA_CACHE_DIR=… node --conditions=@mia/source --import tsx bench/bf16-accuracy.ts ${process.argv.slice(2).join(' ')}\` — ${cpus().length}× ${cpus()[0]?.model ?? 'cpu'}, oneDNN ISA ${outcomes[0]?.isa ?? '?'}; load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}.`,
    `ResNet-18 (torchvision stem, width 32), 5,000 CIFAR-10 members (CCL4 partition, seed 0), ${epochs} epochs, batch 128, SGD 0.9, wd 5e-4, cosine from lr 0.05, no augmentation; attacks of CCL Table 1, one shadow model per precision (shadowSeed partition). Each model in a fresh process on the native backend (${parallel ? 'one thread, the two precisions of a seed side by side' : 'all cores'}). Advantage = TPR − FPR of the best attack; SE by bootstrap.`,
    '',
    table(outcomes, precisions),
    '',
  ].join('\n');
  writeFileSync(`${dir}summary.md`, text);
  writeFileSync(`${dir}outcomes.json`, `${JSON.stringify(outcomes, null, 2)}\n`);
  process.stdout.write(`\n${text}\nwritten to bench/results/${name}/summary.md\n`);
}

await main();
