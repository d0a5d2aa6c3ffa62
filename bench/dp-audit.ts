// The seeded-bug benchmark of the one-run DP audit (a script, not a test): DP-SGD on the Purchase-like
// MLP at ε = 8, δ = 1e-5 with 1,000 white-box gradient canaries, one training run per seed and variant:
// the correct implementation and four seeded bugs (test-only faults of @mia/defense-dp, not exported
// from the package). Counts how often each variant is flagged "broken", the bounds on the correct one,
// and the wall-time overhead of the audited run over the plain DP-SGD run of the same seed.
//
//   node --conditions=@mia/source --import tsx bench/dp-audit.ts --seeds 20              # the full run
//   node --conditions=@mia/source --import tsx bench/dp-audit.ts --seeds 2 --members 2000 --epochs 6 --canaries 1000 --no-write   # a check
//
// Flags (defaults = the full run): --seeds 20 --members 10000 --test 2000 --batch 2048 --epochs 30
// --lr 1 --momentum 0.9 --hidden 256,128 --canaries 1000 --epsilon 8 --delta 1e-5 --confidence 0.95
// --variants correct,noise,clipping,rate,batch --engine native (or native-1, wasm) --placement dedicated
// --out <name> (bench/results/<name>.md and .json; default dp-audit-<date>) --no-write.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { evaluate, sgd, subsetData, train, type LabeledData } from '@mia/core';
import { auditCanaries } from '../packages/metrics/src/index';
import { createMlp } from '@mia/models';
// The repository root does not depend on @mia/defense-dp, @mia/data or @mia/metrics (bench/ is not a package): their sources directly.
// The faults and `runDpTrainingAudit` are internal (not exported from @mia/defense-dp): only this script and the tests reach them.
import { classifierTapedForward, dpSgdPlugin, noiseMultiplierFor } from '../packages/defense-dp/src/index';
import { runDpTrainingAudit } from '../packages/defense-dp/src/audit/audit-dp-training';
import type { DpSgdFaults } from '../packages/defense-dp/src/dp-sgd/dp-sgd-faults';
import type { CanaryPlacement } from '../packages/defense-dp/src/audit/gradient-canaries';
import { purchaseLike } from '../packages/data/src/index';
import { engineById, setupEngine } from './engines';

/** The variants: the correct DP-SGD and the four seeded bugs. */
export const VARIANTS = {
  correct: { label: 'correct DP-SGD', faults: {} as DpSgdFaults, rateBug: false },
  noise: { label: 'noise σ silently × 0.1', faults: { noiseScale: 0.1 } as DpSgdFaults, rateBug: false },
  clipping: { label: 'clipping skipped', faults: { skipClipping: true } as DpSgdFaults, rateBug: false },
  rate: { label: 'accountant told q/10 (σ calibrated and ε reported for q/10)', faults: {} as DpSgdFaults, rateBug: true },
  batch: { label: 'noise not scaled with the batch drawn (std σC/batch on the sum)', faults: { noiseNotScaledWithBatch: true } as DpSgdFaults, rateBug: false },
} as const;
type VariantId = keyof typeof VARIANTS;

interface Settings {
  seeds: number;
  members: number;
  test: number;
  batch: number;
  epochs: number;
  lr: number;
  momentum: number;
  hidden: number[];
  canaries: number;
  epsilon: number;
  delta: number;
  confidence: number;
  variants: VariantId[];
  engine: string;
  placement: CanaryPlacement;
  out: string | undefined;
}

/** One audited run. */
interface AuditRow {
  variant: VariantId;
  seed: number;
  broken: boolean;
  claimedEpsilon: number;
  sigma: number;
  gdpEpsilon: number;
  gdpMu: number;
  oneRunEpsilon: number;
  correct: number;
  guesses: number;
  seconds: number;
  /** CPU seconds of the process (user + system, every thread) during the run: robust to other load on the machine. */
  cpuSeconds: number;
  /** The bounds alone, recomputed from the stored scores (the audit's own arithmetic). */
  boundSeconds: number;
}

/** One plain DP-SGD run (no canaries): the baseline of the overhead. */
interface PlainRow {
  seed: number;
  seconds: number;
  cpuSeconds: number;
  testAccuracy: number;
}

function parse(argv: string[]): Settings {
  const value = (name: string, fallback: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
  };
  const num = (name: string, fallback: number) => {
    const v = Number(value(name, String(fallback)));
    if (!Number.isFinite(v)) throw new Error(`bench/dp-audit: --${name} must be a number, got ${value(name, '')}`);
    return v;
  };
  const variants = value('variants', Object.keys(VARIANTS).join(',')).split(',') as VariantId[];
  for (const v of variants) if (!(v in VARIANTS)) throw new Error(`bench/dp-audit: unknown variant ${v} (known: ${Object.keys(VARIANTS).join(', ')})`);
  const placement = value('placement', 'dedicated') as CanaryPlacement;
  return {
    seeds: num('seeds', 20),
    members: num('members', 10_000),
    test: num('test', 2000),
    batch: num('batch', 2048),
    epochs: num('epochs', 30),
    lr: num('lr', 1),
    momentum: num('momentum', 0.9),
    hidden: value('hidden', '256,128').split(',').map(Number),
    canaries: num('canaries', 1000),
    epsilon: num('epsilon', 8),
    delta: num('delta', 1e-5),
    confidence: num('confidence', 0.95),
    variants,
    engine: value('engine', 'native'),
    placement,
    out: argv.includes('--no-write') ? undefined : value('out', `dp-audit-${new Date().toISOString().slice(0, 10)}`),
  };
}

const range = (start: number, end: number) => Int32Array.from({ length: end - start }, (_, i) => start + i);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '∞');
/** Wall and CPU seconds of `work` (CPU: user + system of the whole process, every thread). */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number; cpuSeconds: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { value, seconds: (performance.now() - start) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

async function main(argv: string[]): Promise<void> {
  const s = parse(argv);
  await setupEngine(engineById(s.engine));
  const all = purchaseLike({ size: s.members + s.test, seed: 0 });
  const members: LabeledData = subsetData(all, range(0, s.members));
  const test: LabeledData = subsetData(all, range(s.members, s.members + s.test));
  const q = s.batch / s.members;
  const steps = s.epochs * Math.ceil(s.members / s.batch);
  const sigma = noiseMultiplierFor({ targetEpsilon: s.epsilon, delta: s.delta, sampleRate: q, steps });
  const sigmaRateBug = noiseMultiplierFor({ targetEpsilon: s.epsilon, delta: s.delta, sampleRate: q / 10, steps });
  const model = (seed: number) => () => createMlp({ numClasses: 100, hidden: s.hidden, seed });
  const optimizer = () => sgd({ lr: s.lr, momentum: s.momentum });
  const log = (line: string) => process.stderr.write(`${line}\n`);
  log(
    `dp-audit: ${s.members} members, q = ${q.toFixed(4)} (expected batch ${s.batch}), ${steps} steps, σ = ${sigma.toFixed(4)} ` +
      `(rate bug: σ = ${sigmaRateBug.toFixed(4)}), MLP ${s.hidden.join('-')}, ${s.canaries} ${s.placement} gradient canaries, engine ${s.engine}`,
  );
  const audits: AuditRow[] = [];
  const plains: PlainRow[] = [];
  for (let seed = 0; seed < s.seeds; seed++) {
    // The plain run of this seed: the same DP-SGD training without canaries.
    {
      const m = model(seed)();
      const plugin = dpSgdPlugin({ data: members, sampleRate: q, clipNorm: 1, noiseMultiplier: sigma, tapedForward: classifierTapedForward });
      const { seconds, cpuSeconds } = await timed(() =>
        train(m, members, { epochs: s.epochs, batchSize: s.batch, optimizer: optimizer(), seed, plugins: [plugin], progressBar: false }),
      );
      const { accuracy } = evaluate(m, test);
      m.dispose();
      plains.push({ seed, seconds, cpuSeconds, testAccuracy: accuracy });
      log(`seed ${seed} plain: ${seconds.toFixed(1)} s (CPU ${cpuSeconds.toFixed(1)} s), test accuracy ${(100 * accuracy).toFixed(1)} %`);
    }
    for (const variant of s.variants) {
      const v = VARIANTS[variant];
      const rate = v.rateBug;
      const {
        value: result,
        seconds,
        cpuSeconds,
      } = await timed(() =>
        runDpTrainingAudit(
          {
            model: model(seed),
            data: members,
            dpSgd: { sampleRate: q, clipNorm: 1, noiseMultiplier: rate ? sigmaRateBug : sigma, tapedForward: classifierTapedForward },
            train: { epochs: s.epochs, batchSize: s.batch, optimizer: optimizer(), seed, progressBar: false },
            canaries: { count: s.canaries, seed: 1000 + seed, placement: s.placement },
            delta: s.delta,
            confidence: s.confidence,
          },
          rate ? { ...v.faults, accountedSampleRate: q / 10 } : v.faults,
        ),
      );
      const boundStart = performance.now();
      auditCanaries(result.scores, result.inclusion, { delta: s.delta, confidence: s.confidence });
      const boundSeconds = (performance.now() - boundStart) / 1000;
      const { audit } = result;
      audits.push({
        variant,
        seed,
        broken: result.broken,
        claimedEpsilon: result.claimedEpsilon,
        sigma: rate ? sigmaRateBug : sigma,
        gdpEpsilon: audit.gdp.epsilon,
        gdpMu: audit.gdp.mu,
        oneRunEpsilon: audit.oneRun.epsilon,
        correct: audit.guesses.correct,
        guesses: audit.guesses.guesses,
        seconds,
        cpuSeconds,
        boundSeconds,
      });
      log(
        `seed ${seed} ${variant}: ${result.broken ? 'BROKEN' : 'ok'} — claimed ε ${f2(result.claimedEpsilon)}, GDP ε ≥ ${f2(audit.gdp.epsilon)} ` +
          `(μ ≥ ${audit.gdp.mu.toFixed(3)}), one-run ε ≥ ${f2(audit.oneRun.epsilon)}, ${audit.guesses.correct}/${audit.guesses.guesses} right, ${seconds.toFixed(1)} s (CPU ${cpuSeconds.toFixed(1)} s)`,
      );
    }
  }
  const report = render(s, { q, steps, sigma, sigmaRateBug }, audits, plains);
  process.stdout.write(`${report}\n`);
  if (s.out !== undefined) {
    const dir = fileURLToPath(new URL('./results/', import.meta.url));
    writeFileSync(`${dir}${s.out}.md`, `${report}\n`);
    writeFileSync(`${dir}${s.out}.json`, `${JSON.stringify({ settings: s, q, steps, sigma, sigmaRateBug, audits, plains }, null, 2)}\n`);
    log(`dp-audit: wrote bench/results/${s.out}.md and .json`);
  }
}

function render(s: Settings, run: { q: number; steps: number; sigma: number; sigmaRateBug: number }, audits: AuditRow[], plains: PlainRow[]): string {
  const lines = [
    `# One-run DP audit: seeded bugs (${new Date().toISOString().slice(0, 10)})`,
    '',
    `purchaseLike, ${s.members} members (${s.test} held out), MLP 600-${s.hidden.join('-')}-100 (tanh); DP-SGD with Poisson sampling at ` +
      `q = ${run.q.toFixed(4)} (expected batch ${s.batch}), C = 1, ${s.epochs} epochs = ${run.steps} steps, SGD lr ${s.lr} momentum ${s.momentum} (constant), ` +
      `σ = ${run.sigma.toFixed(4)} for ε = ${s.epsilon} at δ = ${s.delta} (RDP accountant). Audit: ${s.canaries} white-box gradient canaries ` +
      `(${s.placement} coordinates, raw norm 10·C, each included with probability ½ and joining each step with probability q), scored by ` +
      `initial − final value; guesses fixed in advance: "in" for the ⌊m/5⌋ highest scores, "out" for the ⌊m/5⌋ lowest; broken = the ` +
      `Gaussian-DP bound (Mahloujifar et al. 2024) above the accountant's ε at ${100 * s.confidence} % confidence. One training run per seed and variant; ` +
      `engine ${s.engine}.`,
    '',
    '| variant | flagged broken | claimed ε | GDP ε ≥ (median, min–max) | one-run ε ≥ (median) | correct guesses (median) | s / run |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const id of s.variants) {
    const rows = audits.filter((a) => a.variant === id);
    if (rows.length === 0) continue;
    const gdp = rows.map((r) => r.gdpEpsilon);
    lines.push(
      `| ${VARIANTS[id].label} | ${rows.filter((r) => r.broken).length} / ${rows.length} | ${f2(median(rows.map((r) => r.claimedEpsilon)))} | ` +
        `${f2(median(gdp))} (${f2(Math.min(...gdp))}–${f2(Math.max(...gdp))}) | ${f2(median(rows.map((r) => r.oneRunEpsilon)))} | ` +
        `${median(rows.map((r) => r.correct))} / ${rows[0]!.guesses} | ${median(rows.map((r) => r.seconds)).toFixed(1)} |`,
    );
  }
  const overheadOf = (key: 'seconds' | 'cpuSeconds') =>
    plains.flatMap((p) => {
      const audited = audits.find((a) => a.variant === 'correct' && a.seed === p.seed);
      return audited === undefined ? [] : [(audited[key] - p[key]) / p[key]];
    });
  const overhead = overheadOf('seconds');
  const cpuOverhead = overheadOf('cpuSeconds');
  const pct = (xs: number[]) =>
    `median ${(100 * median(xs)).toFixed(1)} % (min ${(100 * Math.min(...xs)).toFixed(1)} %, max ${(100 * Math.max(...xs)).toFixed(1)} %)`;
  lines.push(
    '',
    `Plain DP-SGD run (no canaries): median ${median(plains.map((p) => p.seconds)).toFixed(1)} s wall, ${median(plains.map((p) => p.cpuSeconds)).toFixed(1)} s CPU, ` +
      `test accuracy ${(100 * median(plains.map((p) => p.testAccuracy))).toFixed(1)} %. ` +
      (overhead.length === 0
        ? 'No correct audited run to compare.'
        : `Overhead of the audited run (training with canaries + scoring + both bounds) over the plain run of the same seed: wall ${pct(overhead)}, ` +
          `CPU ${pct(cpuOverhead)}; the bounds alone: median ${(1000 * median(audits.map((a) => a.boundSeconds))).toFixed(0)} ms.`),
  );
  return lines.join('\n');
}

await main(process.argv.slice(2));
