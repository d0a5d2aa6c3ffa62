import { check, checkPositiveInteger, deriveSeed, train, type Classifier, type LabeledData, type TrainOptions } from '@mia/core';
import { createDpSgdPlugin, type DpSgdPluginOptions, type DpSgdPrivacy } from '../dp-sgd/dp-sgd-plugin';
import type { DpSgdFaults } from '../dp-sgd/dp-sgd-faults';
import { auditCanaryScores, verdictOf, type CanaryScoresAudit, type DpAudit, type DpAuditSettings } from './audit-canary-scores';
import { createGradientCanaries, type CanaryPlacement } from './gradient-canaries';
import { insertInputCanaries } from './input-canaries';

/** The canaries of an {@link auditDpTraining} run. */
export interface DpAuditCanaries {
  /** m, the number of canaries. @default 1000 */
  readonly count?: number;
  /** `'gradient'`: white-box Dirac gradients in DP-SGD's clipped sum; `'input'`: canary records in the training data. @default 'gradient' */
  readonly kind?: 'gradient' | 'input';
  /** Seeds the inclusion vector and the canaries. @default deriveSeed(train.seed ?? 0, 'dp-audit-canaries') */
  readonly seed?: number;
  /** Gradient canaries: where they live (`createGradientCanaries`). @default 'dedicated' */
  readonly placement?: CanaryPlacement;
  /** Gradient canaries: raw norm before clipping. @default 10 × clipNorm */
  readonly gradientNorm?: number;
  /** Input canaries: held-out records to mislabel; without it, random inputs with random labels. */
  readonly pool?: LabeledData;
}

/** Input of {@link auditDpTraining} when it trains: what to train, how, and the audit's settings. */
export interface DpTrainingAudit extends DpAuditSettings {
  /** Builds a fresh model (called once; the model is disposed after scoring). */
  readonly model: () => Classifier | Promise<Classifier>;
  /** The training data. */
  readonly data: LabeledData;
  /** DP-SGD with Poisson sampling at `sampleRate` (`dpSgdPlugin`'s options without `data`, `sampling` and `canaries`). */
  readonly dpSgd: Omit<DpSgdPluginOptions, 'data' | 'sampling' | 'canaries' | 'sampleRate'> & { readonly sampleRate: number };
  /** `train`'s options without plugins; `batchSize` (which only sets the steps per epoch) defaults to round(q·N). */
  readonly train: Omit<TrainOptions, 'plugins' | 'batchSize'> & { readonly batchSize?: number };
  /** The canaries. @default 1,000 white-box gradient canaries */
  readonly canaries?: DpAuditCanaries;
}

/** What {@link auditDpTraining} returns after training. */
export interface DpTrainingAuditResult extends DpAudit {
  /** The accountant's report of the training at `delta` (its ε is the claim). */
  readonly privacy: DpSgdPrivacy;
  /** The canaries: m, kind and seed. */
  readonly canaries: { readonly count: number; readonly kind: 'gradient' | 'input'; readonly seed: number };
  /** Every canary's score, by canary id (store them with the inclusion vector to re-audit later). */
  readonly scores: Float64Array;
  /** The inclusion vector, by canary id. */
  readonly inclusion: Uint8Array;
}

/**
 * Audits a DP-SGD training in one run (Steinke, Nasr & Jagielski 2023; Mahloujifar, Melis &
 * Chaudhuri 2024): trains a fresh model with `dpSgdPlugin` and m canaries (default 1,000 white-box
 * gradient canaries, each included with probability ½), scores the canaries, computes both lower
 * bounds from guesses fixed in advance (default k₊ = k₋ = ⌊m/5⌋) and compares them with the ε the
 * accountant reports for the run: `broken` when the deciding bound exceeds it. Given a run's
 * `scores`, `inclusion` and `claimedEpsilon` instead, it audits those ({@link auditCanaryScores}).
 *
 * @example
 * const result = await auditDpTraining({
 *   model: () => createMlp({ numClasses: 100, seed: 1 }),
 *   data,
 *   dpSgd: { sampleRate: 256 / data.size, clipNorm: 1, noiseMultiplier: 1.1, tapedForward: classifierTapedForward },
 *   train: { epochs: 10, optimizer: sgd({ lr: 0.5 }), seed: 3 },
 *   delta: 1e-5,
 * });
 * assertDpClaimHolds(result); // throws DpClaimBrokenError with result.message when broken
 * @returns the {@link DpAudit} (after training, a {@link DpTrainingAuditResult}).
 * @throws InvalidArgumentError on bad options (as `dpSgdPlugin`, `train` and the canaries report them); MetricsError on bad scores.
 * @see Steinke, Nasr & Jagielski (2023), arXiv:2305.08846; Mahloujifar, Melis & Chaudhuri (2024), arXiv:2410.22235
 */
export function auditDpTraining(input: DpTrainingAudit): Promise<DpTrainingAuditResult>;
export function auditDpTraining(input: CanaryScoresAudit): Promise<DpAudit>;
export async function auditDpTraining(input: DpTrainingAudit | CanaryScoresAudit): Promise<DpAudit> {
  check(
    typeof input === 'object' && input !== null,
    'auditDpTraining',
    'input',
    'an object (a training to audit, or {scores, inclusion, claimedEpsilon})',
    input,
  );
  if ('scores' in input) return auditCanaryScores(input);
  return runDpTrainingAudit(input, {});
}

/**
 * {@link auditDpTraining}'s training path, with deliberate DP-SGD bugs for the audit's tests and
 * benchmark. Not exported from the package.
 * @internal
 */
export async function runDpTrainingAudit(input: DpTrainingAudit, faults: DpSgdFaults): Promise<DpTrainingAuditResult> {
  const fn = 'auditDpTraining';
  check(typeof input.model === 'function', fn, 'model', 'a function returning a fresh Classifier', input.model);
  check(typeof input.dpSgd === 'object' && input.dpSgd !== null, fn, 'dpSgd', 'DP-SGD options {sampleRate, clipNorm, noiseMultiplier, ...}', input.dpSgd);
  check(typeof input.train === 'object' && input.train !== null, fn, 'train', "train's options {epochs, optimizer, ...}", input.train);
  const spec = input.canaries ?? {};
  const count = spec.count ?? 1000;
  checkPositiveInteger(fn, 'canaries.count', count);
  const kind = spec.kind ?? 'gradient';
  check(kind === 'gradient' || kind === 'input', fn, 'canaries.kind', "'gradient' or 'input'", kind);
  const seed = spec.seed ?? deriveSeed(input.train.seed ?? 0, 'dp-audit-canaries');
  const gradient =
    kind === 'gradient'
      ? createGradientCanaries({
          count,
          seed,
          ...(spec.placement === undefined ? {} : { placement: spec.placement }),
          ...(spec.gradientNorm === undefined ? {} : { gradientNorm: spec.gradientNorm }),
        })
      : undefined;
  let inserted: ReturnType<typeof insertInputCanaries> | undefined;
  let model: Classifier | undefined;
  try {
    inserted = kind === 'input' ? insertInputCanaries(input.data, { count, seed, ...(spec.pool === undefined ? {} : { pool: spec.pool }) }) : undefined;
    const data = inserted?.data ?? input.data;
    const plugin = createDpSgdPlugin({ ...input.dpSgd, sampling: 'poisson', data, ...(gradient === undefined ? {} : { canaries: gradient }) }, faults);
    model = await input.model();
    const batchSize = input.train.batchSize ?? Math.max(1, Math.round(input.dpSgd.sampleRate * data.size));
    await train(model, data, { ...input.train, batchSize, plugins: [plugin] });
    const privacy = plugin.privacy(input.delta);
    const scores = gradient !== undefined ? gradient.scores(model) : inserted!.canaries.scores(model);
    const inclusion = gradient !== undefined ? gradient.inclusion() : inserted!.canaries.inclusion();
    const what = kind === 'gradient' ? `white-box gradient canaries (${gradient!.placement} coordinates)` : `input canaries (${inserted!.canaries.kind})`;
    const verdict = verdictOf(fn, scores, inclusion, privacy.epsilon, input, what);
    return { ...verdict, privacy, canaries: { count, kind, seed }, scores, inclusion };
  } finally {
    gradient?.dispose();
    inserted?.canaries.dispose();
    model?.dispose();
  }
}
