import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeMismatchError, describeValue, option, optionsSchema } from '@mia/core';
import { normalQuantile } from '@mia/metrics';
import { createAttackNetwork, gaussianNllLoss, pinballLoss, trainRegressor, type MembershipAttack, type ModelSignals } from '../index';

/**
 * Records as QMIA sees them: the target model's signals on them and their features (the regressor's
 * input: the raw record, e.g. pixels or tabular features, never the target's outputs).
 */
export interface QmiaRecords {
  /** The target model's signals on the records (logits or probabilities for the hinge score). */
  readonly signals: ModelSignals;
  /** The records' features: a tensor `[n, ...]` or row-major values of n equal rows. The caller keeps ownership. */
  readonly features: tf.Tensor | Float32Array;
}

/** The params of {@link qmiaAttack} (a config's `params`): validated whole by {@link qmiaOptionsSchema} before anything trains. */
export interface QmiaParams {
  /** Target false-positive rate α: the regressor predicts the (1 − α)-quantile of the non-members' score. @default 0.01 */
  readonly alpha?: number;
  /**
   * `'pinball'`: one quantile head trained with the pinball loss at 1 − α (the paper's objective);
   * `'gaussian'`: a (μ, log σ) head trained by Gaussian likelihood, quantile μ + σ·Φ⁻¹(1 − α) (the
   * authors' released script, `use_gaussian=True`). @default 'pinball'
   */
  readonly objective?: 'pinball' | 'gaussian';
  /** The target's score s(x, y): `'hinge'` z_y − max_{j≠y} z_j (the paper's), or `'phi'` z_y − logsumexp_{j≠y} z_j (for loss-only signals). @default 'hinge' */
  readonly score?: 'hinge' | 'phi';
  /** Append the one-hot label to the regressor's input (the authors' `use_target_inputs`). @default true */
  readonly labelInput?: boolean;
  /** Hidden widths of the regressor MLP (ReLU). @default [128, 128] */
  readonly hidden?: readonly number[];
  /** @default 30 */
  readonly epochs?: number;
  /** @default 64 */
  readonly batchSize?: number;
  /** Adam learning rate. @default 1e-3 */
  readonly learningRate?: number;
}

/** Options of {@link qmiaAttack}: its params, the report name and the seed. */
export interface QmiaOptions extends QmiaParams {
  /** Report name. @default 'qmia' */
  readonly name?: string;
  /** Seed of the regressor's initialisation and batch order. @default 0 */
  readonly seed?: number;
}

/** The schema of {@link QmiaParams}: strict, with the defaults, and the JSON Schema of a config's `params`. */
export const qmiaOptionsSchema = optionsSchema({
  alpha: option.number({
    min: 0,
    max: 1,
    exclusiveMin: true,
    exclusiveMax: true,
    default: 0.01,
    description: 'target FPR α; the regressor predicts the (1 − α)-quantile',
  }),
  objective: option.choice(['pinball', 'gaussian'], {
    default: 'pinball',
    description: "pinball loss at 1 − α (the paper), or a Gaussian (μ, log σ) head (the authors' script)",
  }),
  score: option.choice(['hinge', 'phi'], { default: 'hinge', description: 'the target score: hinge z_y − max_{j≠y} z_j, or φ for loss-only signals' }),
  labelInput: option.boolean({ default: true, description: "append the one-hot label to the regressor's input" }),
  hidden: option.list(option.integer({ min: 1 }), { default: [128, 128], description: 'hidden widths of the regressor MLP' }),
  epochs: option.integer({ min: 1, default: 30, description: 'epochs of the regressor' }),
  batchSize: option.integer({ min: 1, default: 64, description: 'mini-batch size of the regressor' }),
  learningRate: option.number({ min: 0, exclusiveMin: true, default: 1e-3, description: 'Adam learning rate of the regressor' }),
});

/** A fitted QMIA: scores, decisions and the per-record quantile thresholds it predicts. */
export interface QmiaAttack extends MembershipAttack<QmiaRecords, QmiaRecords> {
  /** 1 when the record's score exceeds its predicted quantile (QMIA's test at level α), else 0. */
  decide(records: QmiaRecords): Uint8Array;
  /** The (1 − α)-quantile of the non-members' score predicted for each record (the decision threshold). */
  thresholds(records: QmiaRecords): Float64Array;
}

/** The target's score s(x, y) of every record (hinge or φ). */
function targetScores(fn: string, signals: ModelSignals, kind: 'hinge' | 'phi'): Float64Array {
  if (kind === 'phi') return Float64Array.from(signals.phi);
  const c = signals.numClasses;
  const rows = signals.logits ?? signals.probabilities;
  if (rows === undefined) throw new InvalidArgumentError(`${fn}: the hinge score needs logits or probabilities, got loss-only signals; use score: 'phi'`);
  // On probabilities the hinge is taken on log p: log-softmax shifts every logit of a row equally, so it is the logits' hinge.
  const value = signals.logits === undefined ? (v: number) => Math.log(Math.max(v, 1e-45)) : (v: number) => v;
  return Float64Array.from({ length: signals.size }, (_, i) => {
    const y = signals.labels[i]!;
    let other = -Infinity;
    for (let j = 0; j < c; j++) if (j !== y) other = Math.max(other, value(rows[i * c + j]!));
    return value(rows[i * c + y]!) - other;
  });
}

/**
 * Quantile-regression membership inference (QMIA): a regressor trained on public non-members (records
 * the target did not train on, with the target's score on each) predicts, per record, the
 * (1 − α)-quantile q(x, y) of the target's score on non-members like it; a record is a member when its
 * score exceeds its quantile. No shadow or reference model is trained.
 *
 * - Score: the hinge s(x, y) = z_y − max_{j≠y} z_j of the target's logits (paper §4, the authors'
 *   `label_logit_and_hinge_scoring_fn`), or φ for loss-only signals.
 * - `objective: 'pinball'`: q̂ minimises the pinball loss ρ_{1−α}(s − q̂) (the paper's objective); membership
 *   score `s − q̂(x, y)`, decision `s > q̂`.
 * - `objective: 'gaussian'`: a (μ, log σ) head trained by Gaussian likelihood (the authors' released
 *   script); q = μ + σ·Φ⁻¹(1 − α); membership score `(s − μ)/σ`, decision `(s − μ)/σ > Φ⁻¹(1 − α)`.
 *   Thresholding that score at Φ⁻¹(1 − α′) is QMIA at every α′, so its ROC is QMIA's ROC.
 * - The regressor is an MLP on the flattened features (and the one-hot label), where the paper
 *   fine-tunes a pretrained ConvNeXt on images: pass features from a pretrained encoder for the
 *   paper's setting. Targets are standardised with the public scores' mean and standard deviation
 *   for training (quantiles are equivariant under that affine map) and mapped back.
 *
 * @param options - {@link QmiaOptions}; the params are validated whole ({@link qmiaOptionsSchema}) here, before anything trains.
 * @returns The attack: `prepare(publicNonMembers)` trains the regressor, `score(records)` and
 *   `decide(records)` use it, `dispose()` frees it.
 * @throws InvalidArgumentError naming every bad option.
 * @see Bertran et al., "Scalable Membership Inference Attacks via Quantile Regression", NeurIPS 2023
 *   (quantile regression of the non-members' score, the hinge score); the authors' code, amazon-science/quantile-mia.
 */
export function qmiaAttack(options: QmiaOptions = {}): QmiaAttack {
  const fn = 'qmiaAttack';
  const { name = 'qmia', seed = 0, ...params } = options;
  if (typeof name !== 'string' || name === '') throw new InvalidArgumentError(`${fn}: name must be a non-empty string, got ${describeValue(name)}`);
  if (!Number.isInteger(seed)) throw new InvalidArgumentError(`${fn}: seed must be an integer, got ${describeValue(seed)}`);
  const o = qmiaOptionsSchema.parse(params, fn);
  const z = normalQuantile(1 - o.alpha);
  let fitted: { network: ReturnType<typeof createAttackNetwork>; mean: number; std: number; numClasses: number; dim: number } | undefined;

  /** The regressor's input `[n, d (+ C)]`. */
  const inputs = (where: string, records: QmiaRecords, numClasses: number): tf.Tensor2D => {
    const { signals, features } = records ?? ({} as QmiaRecords);
    if (typeof signals?.size !== 'number')
      throw new InvalidArgumentError(`${where}: records.signals must be the target's ModelSignals, got ${describeValue(signals)}`);
    const n = signals.size;
    if (features instanceof Float32Array) {
      if (n === 0 || features.length % n !== 0 || features.length === 0)
        throw new ShapeMismatchError(`${where}: records.features must hold ${n} equal rows (one per record), got ${features.length} values`);
    } else if (typeof (features as tf.Tensor | undefined)?.shape !== 'object' || (features as tf.Tensor).shape[0] !== n || (features as tf.Tensor).rank < 2) {
      throw new ShapeMismatchError(
        `${where}: records.features must be a tensor [${n}, ...] (one row per record) or a Float32Array, got ${describeValue((features as tf.Tensor | undefined)?.shape ?? features)}`,
      );
    }
    return tf.tidy(() => {
      const x =
        features instanceof Float32Array ? tf.tensor2d(features, [n, features.length / n]) : (tf.reshape(tf.cast(features, 'float32'), [n, -1]) as tf.Tensor2D);
      return o.labelInput ? (tf.concat([x, tf.oneHot(tf.tensor1d(signals.labels, 'int32'), numClasses)], 1) as tf.Tensor2D) : x;
    });
  };

  /** Per record: the predicted quantile q and, for the Gaussian head, σ. */
  const predict = (where: string, records: QmiaRecords): { q: Float64Array; sigma?: Float64Array; s: Float64Array } => {
    if (fitted === undefined) throw new InvalidArgumentError(`${where}: call prepare(publicNonMembers) before scoring`);
    const f = fitted;
    if (records?.signals?.numClasses !== f.numClasses)
      throw new ShapeMismatchError(
        `${where}: records.signals must have ${f.numClasses} classes like the public non-members, got ${describeValue(records?.signals?.numClasses)}`,
      );
    const x = inputs(where, records, f.numClasses);
    try {
      if (x.shape[1] !== f.dim)
        throw new ShapeMismatchError(
          `${where}: records.features must have ${f.dim - (o.labelInput ? f.numClasses : 0)} values per record like the public non-members, got ${x.shape[1]! - (o.labelInput ? f.numClasses : 0)}`,
        );
      const logits = tf.tidy(() => f.network.forward(x, { training: false }).logits);
      const out = logits.dataSync();
      logits.dispose();
      const s = targetScores(where, records.signals, o.score);
      const n = s.length;
      if (o.objective === 'pinball') return { s, q: Float64Array.from({ length: n }, (_, i) => f.mean + f.std * out[2 * i + 1]!) };
      const sigma = Float64Array.from({ length: n }, (_, i) => f.std * Math.exp(out[2 * i + 1]!));
      return { s, sigma, q: Float64Array.from({ length: n }, (_, i) => f.mean + f.std * out[2 * i]! + sigma[i]! * z) };
    } finally {
      x.dispose();
    }
  };

  return {
    name,
    async prepare(publicNonMembers) {
      const where = `${name}.prepare`;
      const numClasses = publicNonMembers?.signals?.numClasses;
      if (!Number.isInteger(numClasses) || numClasses! < 2)
        throw new InvalidArgumentError(`${where}: publicNonMembers.signals must be the target's ModelSignals, got ${describeValue(publicNonMembers?.signals)}`);
      const s = targetScores(where, publicNonMembers.signals, o.score);
      const mean = s.reduce((a, v) => a + v, 0) / s.length;
      const std = Math.sqrt(s.reduce((a, v) => a + (v - mean) ** 2, 0) / s.length) || 1;
      const x = inputs(where, publicNonMembers, numClasses!);
      fitted?.network.dispose();
      fitted = undefined;
      const network = createAttackNetwork({
        inputDim: x.shape[1]!,
        layers: [...o.hidden.map((units) => ({ units })), { units: o.objective === 'pinball' ? 1 : 2 }],
        seed,
      });
      try {
        await trainRegressor(
          network,
          x,
          Float64Array.from(s, (v) => (v - mean) / std),
          {
            // A 1-unit head outputs [0, q]: the quantile is column 1.
            loss: o.objective === 'pinball' ? (out, t) => pinballLoss(tf.reshape(tf.slice(out, [0, 1], [-1, 1]), [-1]), t, 1 - o.alpha) : gaussianNllLoss,
            epochs: o.epochs,
            batchSize: o.batchSize,
            learningRate: o.learningRate,
            seed,
          },
        );
      } catch (error) {
        network.dispose();
        throw error;
      } finally {
        x.dispose();
      }
      fitted = { network, mean, std, numClasses: numClasses!, dim: x.shape[1]! };
    },
    score(records) {
      const { s, q, sigma } = predict(`${name}.score`, records);
      return sigma === undefined ? s.map((v, i) => v - q[i]!) : s.map((v, i) => (v - (q[i]! - sigma[i]! * z)) / sigma[i]!);
    },
    decide(records) {
      const { s, q } = predict(`${name}.decide`, records);
      return Uint8Array.from(s, (v, i) => (v > q[i]! ? 1 : 0));
    },
    thresholds: (records) => predict(`${name}.thresholds`, records).q,
    dispose() {
      fitted?.network.dispose();
      fitted = undefined;
    },
  };
}
