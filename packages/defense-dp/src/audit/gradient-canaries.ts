import * as tf from '@tensorflow/tfjs-core';
import { check, checkPositiveInteger, deriveSeed, InvalidArgumentError, seededRandom, type Classifier } from '@mia/core';
import { drawInclusion } from './draw-inclusion';

/** Where the gradient canaries live. */
export type CanaryPlacement = 'dedicated' | 'model';

/** Options of {@link createGradientCanaries}. */
export interface GradientCanariesOptions {
  /** m ≥ 1: the number of canaries. */
  readonly count: number;
  /** Seeds the inclusion vector, the coordinates and every step's sampling of the canaries. */
  readonly seed: number;
  /**
   * `'dedicated'`: canary i is coordinate i of an extra zero-initialised variable of m entries,
   * trained (noised, updated by the run's optimizer) beside the model but never touched by the data,
   * so a canary's score holds only its own gradient and the DP noise, and the model's weights are
   * exactly those of the same training (same seed) without canaries. `'model'`: m distinct random
   * coordinates of the model's trainable variables (Steinke et al.'s Dirac canaries), whose scores
   * also carry the data's gradients at those coordinates.
   * @default 'dedicated'
   */
  readonly placement?: CanaryPlacement;
  /**
   * L2 norm of each canary gradient before DP-SGD's clipping, > 0. Clipping brings it to the
   * clipping norm C, so in a correct training every canary adds exactly C (Steinke et al.'s canary);
   * a norm above C makes a training that skips clipping visible.
   * @default 10 × the plugin's clipNorm
   */
  readonly gradientNorm?: number;
}

/** White-box canaries for DP-SGD: pass them to `dpSgdPlugin({ canaries })`; see {@link createGradientCanaries}. */
export interface GradientCanaries {
  readonly count: number;
  readonly seed: number;
  readonly placement: CanaryPlacement;
  /**
   * The score of every canary, by canary id: its coordinate's initial value minus its final value
   * (gradient descent moves a coordinate against the gradients added to it, so higher = more likely
   * included). Reads coordinates and weights only, never the inclusion vector.
   * @param model - the trained model (required with `placement: 'model'`).
   * @throws InvalidArgumentError before training, or with a model the canaries were not trained in.
   */
  scores(model?: Classifier): Float64Array;
  /** The inclusion vector (1 = canary i was in the training), seeded by `seed`; a copy. */
  inclusion(): Uint8Array;
  /** Frees the dedicated variable. */
  dispose(): void;
}

/** What `dpSgdPlugin` does with the canaries at each step. @internal */
export interface CanaryStep {
  readonly sampleRate: number;
  readonly clipNorm: number;
  readonly seed: number;
  /** False only in the tests' deliberately broken trainings. */
  readonly clip: boolean;
}

/** The plugin's side of a {@link GradientCanaries}. @internal */
export interface CanaryHooks {
  /** The dedicated variable, which the plugin adds to the trained variables. */
  readonly variable: tf.Variable | undefined;
  /** Binds the canaries to the model before its first update (once per canary set). */
  start(model: Classifier): void;
  /** The clipped sums plus this step's canary gradients (each included canary joins with probability q). */
  addTo(sums: readonly tf.Tensor[], variables: readonly tf.Variable[], step: CanaryStep): tf.Tensor[];
}

const hooks = new WeakMap<GradientCanaries, CanaryHooks>();

/** The plugin's access to the canaries. @internal */
export function canaryHooks(canaries: GradientCanaries): CanaryHooks | undefined {
  return hooks.get(canaries);
}

/**
 * White-box gradient canaries for DP-SGD (Steinke, Nasr & Jagielski 2023, white-box "Dirac canaries"):
 * m canaries, each included in the training independently with probability ½ (seeded); an included
 * canary is an extra example whose gradient is a Dirac vector on its own coordinate (raw norm
 * `gradientNorm`, clipped like every example's gradient to C). It joins each step's batch
 * independently with the step's sampling rate q, exactly as a training example under Poisson
 * sampling, so the accountant's ε covers it; its clipped gradient enters the clipped sum before the
 * noise. After training, {@link GradientCanaries.scores} is the coordinate's change (initial − final),
 * which a one-run audit (`auditCanaries` of `@mia/metrics`) turns into lower bounds on ε.
 *
 * @example
 * const canaries = createGradientCanaries({ count: 1000, seed: 7 });
 * const dp = dpSgdPlugin({ data, sampleRate, clipNorm: 1, noiseMultiplier, canaries });
 * await train(model, data, { epochs, batchSize, optimizer, plugins: [dp] });
 * const audit = auditCanaries(canaries.scores(), canaries.inclusion(), { delta: 1e-5 });
 * @throws InvalidArgumentError on a count that is not a positive integer, a non-integer seed, an unknown placement or a norm ≤ 0.
 * @see Steinke, Nasr & Jagielski (2023), "Privacy Auditing with One (1) Training Run", arXiv:2305.08846, Algorithm 1 and the white-box experiments
 */
export function createGradientCanaries(options: GradientCanariesOptions): GradientCanaries {
  const fn = 'createGradientCanaries';
  check(typeof options === 'object' && options !== null, fn, 'options', 'an object {count, seed, placement?, gradientNorm?}', options);
  checkPositiveInteger(fn, 'count', options.count);
  check(Number.isInteger(options.seed), fn, 'seed', 'an integer', options.seed);
  const placement = options.placement ?? 'dedicated';
  check(placement === 'dedicated' || placement === 'model', fn, 'placement', "'dedicated' or 'model'", placement);
  const norm = options.gradientNorm;
  check(norm === undefined || (typeof norm === 'number' && norm > 0 && Number.isFinite(norm)), fn, 'gradientNorm', 'a finite number > 0', norm);
  const { count, seed } = options;
  const included = drawInclusion(count, deriveSeed(seed, 'canary-inclusion'));
  const variable = placement === 'dedicated' ? tf.tidy(() => tf.variable(tf.zeros([count]), true)) : undefined;
  // Canary i sits at `offsets[i]` of `targets[i]` (the dedicated variable, or a model variable).
  let targets: tf.Variable[] | undefined;
  let offsets: Int32Array | undefined;
  let initial: Float64Array | undefined;

  const canaries: GradientCanaries = {
    count,
    seed,
    placement,
    scores(model) {
      if (targets === undefined || offsets === undefined || initial === undefined) {
        throw new InvalidArgumentError('GradientCanaries.scores: the canaries must have been trained in (dpSgdPlugin({ canaries }) and train) first');
      }
      if (placement === 'model') {
        const trained = new Set(model?.trainableVariables ?? []);
        if (!targets.every((v) => trained.has(v))) {
          throw new InvalidArgumentError('GradientCanaries.scores: model must be the model the canaries were trained in (placement "model")');
        }
      }
      const values = new Map<tf.Variable, Float32Array | Int32Array | Uint8Array>();
      const out = new Float64Array(count);
      for (let i = 0; i < count; i++) {
        const v = targets[i]!;
        if (!values.has(v)) values.set(v, v.dataSync());
        out[i] = initial[i]! - values.get(v)![offsets[i]!]!;
      }
      return out;
    },
    inclusion: () => included.slice(),
    dispose: () => variable?.dispose(),
  };

  hooks.set(canaries, {
    variable,
    start(model) {
      if (targets !== undefined) throw new InvalidArgumentError(`${fn}: each canary set audits one training; create new canaries for another run`);
      if (variable !== undefined) {
        targets = new Array<tf.Variable>(count).fill(variable);
        offsets = Int32Array.from({ length: count }, (_, i) => i);
        initial = new Float64Array(variable.dataSync());
        return;
      }
      const variables = model.trainableVariables;
      const sizes = variables.map((v) => v.size);
      const total = sizes.reduce((a, b) => a + b, 0);
      if (total < count)
        throw new InvalidArgumentError(`${fn}: count must be at most the model's ${total} trainable coordinates with placement "model", got ${count}`);
      const flat = seededRandom(deriveSeed(seed, 'canary-coordinates')).sample(total, count);
      targets = [];
      offsets = new Int32Array(count);
      initial = new Float64Array(count);
      const data = variables.map((v) => v.dataSync());
      for (let i = 0; i < count; i++) {
        let k = 0;
        let offset = flat[i]!;
        while (offset >= sizes[k]!) offset -= sizes[k++]!;
        targets.push(variables[k]!);
        offsets[i] = offset;
        initial[i] = data[k]![offset]!;
      }
    },
    addTo(sums, trainedVariables, step) {
      if (targets === undefined || offsets === undefined) throw new InvalidArgumentError(`${fn}: the canaries were not started (internal)`);
      const raw = norm ?? 10 * step.clipNorm;
      const value = step.clip ? raw * Math.min(1, step.clipNorm / (raw + 1e-6)) : raw;
      const random = seededRandom(step.seed);
      const additions = new Map<number, Float32Array>();
      for (let i = 0; i < count; i++) {
        const joins = random.next() < step.sampleRate; // drawn for every canary, in or out: the stream does not depend on the inclusion
        if (!joins || included[i] === 0) continue;
        const k = trainedVariables.indexOf(targets[i]!);
        if (k < 0) throw new InvalidArgumentError(`${fn}: a canary's variable is not among the trained variables (internal)`);
        let add = additions.get(k);
        if (add === undefined) additions.set(k, (add = new Float32Array(trainedVariables[k]!.size)));
        add[offsets[i]!] = add[offsets[i]!]! + value;
      }
      return sums.map((sum, k) => {
        const add = additions.get(k);
        return add === undefined ? sum : tf.tidy(() => tf.add(sum, tf.tensor(add, sum.shape)));
      });
    },
  });
  return canaries;
}
