// `pnpm bench --audit`: how much `auditModel` costs beyond the model's own forward passes. In one fresh
// process: the logits of N CIFAR-10 images with a ResNet-18 of width 32, then `auditModel` on the same
// images (N/2 members, N/2 non-members, logits included), then the logits again; the ratio uses the
// mean of the two logit timings, so a change of load during the run shows in the row.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import { predictLogits, subsetData, type LabeledData } from '@mia/core';
import { createResNet } from '@mia/models';
// The repository root does not depend on @mia/attacks or @mia/data (bench/ is not a package): their sources directly.
import { auditModel, compareWithBaseline, contentHashes, fitBlindBaseline, recordFeatures } from '../packages/attacks/src/index';
import { loadDataset } from '../packages/data/src/index';
import { allCores } from './pin';
import { engineById, setupEngine } from './engines';

/** The target: an audit of 50,000 records costs at most this many times computing their logits. */
export const AUDIT_TARGET = 1.5;
/** The record count the target is stated for. */
export const AUDIT_TARGET_RECORDS = 50_000;

/** What one `--audit` run measures. */
export interface AuditSettings {
  readonly records: number;
  readonly resamples: number;
  /** ResNet-18 stem: torchvision's (7×7/2 conv + max-pool, as `examples/crl` at the cpu scale) or the CIFAR one (3×3, no pool). */
  readonly stem: 'imagenet' | 'cifar';
  readonly engine: string;
}

/** Wall and CPU seconds (user + system of the whole process, every thread). */
export interface Seconds {
  readonly wall: number;
  readonly cpu: number;
}

/** One `--audit` row (JSON from the child process). */
export interface AuditRow extends AuditSettings {
  readonly engineLabel?: string;
  /** The logits of all N records, before and after the audit. */
  readonly logits?: readonly [Seconds, Seconds];
  readonly audit?: Seconds;
  /**
   * The audit's validity work alone, as `auditModel` does it inside the audit on the batches it
   * reads for the model anyway: the records' content hashes and blind-baseline features, the
   * cross-fitted baseline and its comparison with the best attack (target: at most 5 % of the audit).
   */
  readonly validity?: Seconds;
  /** The advantage of the strongest attack (an untrained model: near 0; shows the audit ran on real scores). */
  readonly maxAdvantage?: number;
  /** No tensor left behind by the audit. */
  readonly leakFree?: boolean;
  /** 1-minute load average when the child finished. */
  readonly load?: number;
  readonly note?: string;
}

const seconds = async (work: () => unknown): Promise<Seconds> => {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { wall: (performance.now() - start) / 1000, cpu: (used.user + used.system) / 1e6 };
};

/** Child process: the three timings of one run; prints the AuditRow as JSON. */
export async function childAudit(settings: AuditSettings): Promise<void> {
  const engine = engineById(settings.engine);
  await setupEngine(engine);
  const { records, resamples, stem } = settings;
  const cifar = await loadDataset('cifar10');
  if (cifar.size < records) throw new Error(`bench --audit: CIFAR-10 holds ${cifar.size} records, fewer than --records ${records}`);
  const range = (start: number, end: number) => Int32Array.from({ length: end - start }, (_, i) => start + i);
  const half = records >> 1;
  // The first N of the pooled train + test set: the first half as members, the second as non-members.
  const members: LabeledData = subsetData(cifar, range(0, half));
  const nonMembers: LabeledData = subsetData(cifar, range(half, records));
  const model = createResNet({ numClasses: 10, width: 32, stem, seed: 0 });
  // The logits as an audit needs them: computed in batches of 256 and read into JavaScript.
  const computeLogits = () => {
    for (const data of [members, nonMembers]) {
      const logits = predictLogits(model, data, { batchSize: 256 });
      logits.dataSync();
      logits.dispose();
    }
  };
  // Warm-up on both batch shapes (oneDNN creates its primitives per shape).
  predictLogits(model, subsetData(members, range(0, Math.min(half, 300))), { batchSize: 256 }).dispose();
  const before = await seconds(computeLogits);
  const tensors = tf.memory().numTensors;
  let maxAdvantage = NaN;
  let bestScores: Float64Array | undefined;
  const audit = await seconds(async () => {
    const report = await auditModel(model, { members, nonMembers }, { resamples, batchSize: 256 });
    maxAdvantage = report.maxAdvantage.advantage.estimate;
    const best = report.attacks.reduce((b, a) => (a.auc.estimate > b.auc.estimate ? a : b));
    bestScores = Float64Array.from([...best.memberScores, ...best.nonMemberScores]);
  });
  const leakFree = tf.memory().numTensors === tensors;
  const batches = batchesOf(members, nonMembers);
  const validity = await seconds(() => validityWork(batches, members.size, bestScores!));
  const after = await seconds(computeLogits);
  model.dispose();
  const row: AuditRow = { ...settings, engineLabel: engine.label, logits: [before, after], audit, validity, maxAdvantage, leakFree, load: loadavg()[0] };
  process.stdout.write(`${JSON.stringify(row)}\n`);
}

/** The records of both sets in batches of 256, as `auditModel` reads them for the model anyway (outside the timed validity work). */
function batchesOf(members: LabeledData, nonMembers: LabeledData): Array<{ values: Float32Array; labels: Int32Array; data: LabeledData }> {
  return [members, nonMembers].flatMap((data) =>
    Array.from({ length: Math.ceil(data.size / 256) }, (_, k) => {
      const [start, end] = [256 * k, Math.min(256 * (k + 1), data.size)];
      const batch = data.gather(Int32Array.from({ length: end - start }, (_, i) => start + i));
      const values = Float32Array.from(batch.dataSync() as Float32Array);
      batch.dispose();
      return { values, labels: data.y.subarray(start, end), data };
    }),
  );
}

/** What `auditModel` does for its validity besides the attacks, on the batches it reads anyway: hashes, features, baseline, comparison. */
function validityWork(batches: ReturnType<typeof batchesOf>, numMembers: number, bestScores: Float64Array): void {
  const parts = batches.map(({ values, labels, data }) => {
    contentHashes(
      values,
      data.inputShape.reduce((a, b) => a * b, 1),
    );
    return recordFeatures(values, data.inputShape, labels, data.numClasses);
  });
  const numFeatures = parts[0]!.numFeatures;
  const features = new Float32Array(parts.reduce((n, p) => n + p.features.length, 0));
  parts.reduce((offset, p) => (features.set(p.features, offset), offset + p.features.length), 0);
  const isMember = Uint8Array.from({ length: features.length / numFeatures }, (_, i) => (i < numMembers ? 1 : 0));
  const fit = fitBlindBaseline({ features, numFeatures, description: '' }, isMember, { confidence: 0.95 });
  compareWithBaseline({ name: 'best', scores: bestScores }, fit, isMember, 0.95);
}

/** Runs {@link childAudit} in a fresh process (on all cores for a multi-threaded engine, else on the pinned core). */
export function runAudit(settings: AuditSettings): AuditRow {
  const run = fileURLToPath(new URL('./run.ts', import.meta.url));
  const wrap = engineById(settings.engine).allCores ? allCores() : [];
  const args = ['--child-audit', String(settings.records), String(settings.resamples), settings.stem, settings.engine];
  const [cmd, ...rest] = [...wrap, process.execPath, ...process.execArgv, run, ...args];
  const r = spawnSync(cmd!, rest, { encoding: 'utf8', timeout: 4 * 3_600_000, maxBuffer: 64 * 2 ** 20 });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status === 0 && last.startsWith('{')) return JSON.parse(last) as AuditRow;
  return { ...settings, note: `fails: exit ${r.status ?? r.signal}: ${(r.stderr.trim().split('\n').pop() ?? '').slice(0, 200)}` };
}

/**
 * Audit time ÷ logit time. Wall time: against the faster of the two logit passes (the less disturbed
 * by other processes; the ratio can only come out higher). CPU time (user + system of every thread):
 * against their mean.
 */
export function auditRatios(row: AuditRow): { wall: number; cpu: number } {
  const [before, after] = row.logits!;
  return { wall: row.audit!.wall / Math.min(before.wall, after.wall), cpu: row.audit!.cpu / ((before.cpu + after.cpu) / 2) };
}

/** The audit section of the results: one line per run and the verdict on the target. */
export function renderAudit(rows: readonly AuditRow[]): string {
  const s = (v: number) => `${v.toFixed(1)} s`;
  const lines = [
    '## Audit of a model against its logits',
    '',
    '`auditModel` of @mia/attacks (the metric attacks, AUC and advantage with bootstrap intervals, TPR at FPR, the empirical ε, per class and',
    'per record) on a ResNet-18 of width 32 (untrained: the cost does not depend on the weights) and the first N CIFAR-10 images of the',
    'pooled train + test set (N/2 members, N/2 non-members), against computing the logits of the same images in batches of 256 and',
    'reading them into JavaScript. One fresh process: logits, audit (logits included), logits again. The wall ratio divides by the faster',
    'logit pass, the CPU ratio (user + system time of every thread) by the mean of both. The target is decided on the CPU ratio for a',
    'one-thread engine (its CPU time is the work done, whatever else the machine runs; the audit does no I/O) and on the wall ratio for',
    'a multi-threaded one. On a busy machine the wall times of a one-thread engine mostly measure the load.',
    '',
    '| engine | stem | records | resamples | logits (before, after) | audit | audit ÷ faster logits (wall) | logits CPU (before, after) | audit CPU | audit ÷ mean logits (CPU) | validity (share of audit, CPU) | no leak | load | note |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const verdicts: string[] = [];
  for (const r of rows) {
    if (r.audit === undefined || r.logits === undefined) {
      lines.push(`| ${r.engine} | ${r.stem} | ${r.records} | ${r.resamples} | | | | | | | | | | ${r.note ?? ''} |`);
      continue;
    }
    const { wall, cpu } = auditRatios(r);
    const byCpu = engineById(r.engine).threads === 1;
    const decisive = byCpu ? cpu : wall;
    lines.push(
      `| ${r.engineLabel ?? r.engine} | ${r.stem} | ${r.records} | ${r.resamples} | ${s(r.logits[0].wall)}, ${s(r.logits[1].wall)} | ${s(r.audit.wall)} | ${wall.toFixed(2)}× | ${s(r.logits[0].cpu)}, ${s(r.logits[1].cpu)} | ${s(r.audit.cpu)} | ${cpu.toFixed(2)}× | ${r.validity === undefined ? '' : `${s(r.validity.cpu)} (${((100 * r.validity.cpu) / r.audit.cpu).toFixed(1)} %)`} | ${r.leakFree ? 'yes' : 'NO'} | ${r.load?.toFixed(1) ?? ''} | ${r.note ?? ''} |`,
    );
    const at = r.records === AUDIT_TARGET_RECORDS ? '' : ` (measured at ${r.records} records; the target is stated for ${AUDIT_TARGET_RECORDS})`;
    if (r.validity !== undefined)
      verdicts.push(
        `- ${r.engineLabel ?? r.engine}, ${r.stem} stem: the validity work (blind baseline, hashes, features) is ${((100 * r.validity.cpu) / r.audit.cpu).toFixed(1)} % of the audit's CPU time; target ≤ 5 %: ${r.validity.cpu <= 0.05 * r.audit.cpu ? 'met' : 'NOT met'}.`,
      );
    verdicts.push(
      `- ${r.engineLabel ?? r.engine}, ${r.stem} stem: audit ÷ logits = ${wall.toFixed(2)}× wall, ${cpu.toFixed(2)}× CPU; target ≤ ${AUDIT_TARGET}× (${byCpu ? 'CPU' : 'wall'}): ${decisive <= AUDIT_TARGET ? 'met' : 'NOT met'}${at}.`,
    );
  }
  return `${[...lines, '', ...verdicts].join('\n')}\n`;
}
