import { deriveSeed, describeValue, InvalidArgumentError, option, optionsSchema, type OptionIssue, type OptionsOf, type OptionsSchema } from '@mia/core';
import {
  auditCanaryScores,
  classifierTapedForward,
  createGradientCanaries,
  dpSgdOptionsSchema,
  dpSgdPlugin,
  noiseMultiplierFor,
  smallestCertifiableEpsilon,
  type DpAudit,
} from '@mia/defense-dp';
import { attackModelKinds, modelNames } from '@mia/models';
import { defineDefense, type DefenseRunFacts } from './definition';
import { trainWithPlugins } from './train-helpers';

const fields = {
  clipNorm: dpSgdOptionsSchema.fields.clipNorm,
  noiseMultiplier: option.number({
    min: 0,
    description: 'Noise multiplier σ (noise N(0, σ²C²) per coordinate of the summed gradient); give exactly one of noiseMultiplier and targetEpsilon.',
  }),
  targetEpsilon: option.number({
    min: 0,
    exclusiveMin: true,
    description:
      "Target ε of the whole training: σ is the smallest noise multiplier whose accountant ε is at most it (noiseMultiplierFor), for the run's steps. Must be above the smallest ε the accountant certifies at delta (≈ 0.103 at δ = 1e-5).",
  }),
  delta: option.number({
    min: 0,
    max: 1,
    exclusiveMin: true,
    exclusiveMax: true,
    required: true,
    description: 'The δ of the (ε, δ) guarantee: below 1/N, N the examples the target trains on (checked with the config).',
  }),
  sampleRate: option.number({
    min: 0,
    max: 1,
    exclusiveMin: true,
    required: true,
    description: 'Poisson sampling rate q: the expected batch is q·N (this replaces training.batchSize); an epoch is ceil(N / max(1, round(q·N))) steps.',
  }),
  sampling: dpSgdOptionsSchema.fields.sampling,
  lr: option.number({
    min: 0,
    exclusiveMin: true,
    description:
      "Learning rate of the DP-SGD trainings (target and shadows) in place of training.lr: DP-SGD's noisy, clipped steps usually need a larger one than the non-private run (choose it on the validation slice).",
  }),
  epochs: option.integer({
    min: 1,
    description: 'Epochs of the DP-SGD trainings in place of training.epochs (more steps at a fixed ε mean more noise per step: σ follows).',
  }),
  audit: option.group(
    {
      canaries: option.integer({
        min: 10,
        required: true,
        description:
          'm white-box gradient canaries (a Dirac gradient of norm 10·C on its own coordinate, each included with probability ½ and sampled like an example); 1,000 refutes ε = 8 at δ = 1e-5 when the implementation is broken.',
      }),
      confidence: option.number({ min: 0, max: 1, exclusiveMin: true, exclusiveMax: true, default: 0.95, description: 'Confidence of the lower bounds.' }),
      decision: option.choice(['gdp', 'one-run'] as const, {
        default: 'gdp',
        description: "The bound that decides 'broken': the Gaussian-DP bound (tighter, for DP-SGD) or Steinke et al.'s (ε, δ) bound (assumption-free).",
      }),
    },
    {
      description:
        "The one-run canary audit of the DP claim (Steinke, Nasr & Jagielski 2023; Mahloujifar et al. 2024): the target trains with m gradient canaries and its row reports the empirical ε lower bound beside the accountant's ε, flagged broken when it exceeds it (`mia gate --dp`).",
    },
  ),
};

/** The validated params of the `dp-sgd` defense. */
export type DpSgdDefenseOptions = OptionsOf<typeof fields>;

const base = optionsSchema(fields);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** The issue when not exactly one of `noiseMultiplier` and `targetEpsilon` is given. */
function oneNoiseIssues(input: unknown, path: string): OptionIssue[] {
  if (!isObject(input)) return [];
  const sigma = input.noiseMultiplier !== undefined;
  const target = input.targetEpsilon !== undefined;
  if (sigma !== target) return [];
  return [
    {
      path: at(path, sigma ? 'targetEpsilon' : 'noiseMultiplier'),
      expected: 'exactly one of noiseMultiplier (σ ≥ 0) and targetEpsilon (ε > 0, from which σ is computed)',
      got: sigma ? `both (noiseMultiplier ${describeValue(input.noiseMultiplier)}, targetEpsilon ${describeValue(input.targetEpsilon)})` : 'neither',
    },
  ];
}

/**
 * The params of `dp-sgd`: the fields' own checks and, validated with them, exactly one of
 * `noiseMultiplier` and `targetEpsilon`.
 */
export const dpSgdDefenseSchema: OptionsSchema<DpSgdDefenseOptions, typeof fields> = {
  fields,
  check: (input, path = '') => [...base.check(input, path), ...oneNoiseIssues(input, path)],
  parse(input, fn, settings) {
    const known =
      settings?.allowUnknown === true && isObject(input) ? Object.fromEntries(Object.entries(input).filter(([k]) => Object.hasOwn(fields, k))) : input;
    const issues = [...base.check(known), ...oneNoiseIssues(known, '')];
    if (issues.length > 0) throw new InvalidArgumentError(issues.map((i) => `${fn}: ${i.path} must be ${i.expected}, got ${i.got}`).join('; '));
    return base.parse(known, fn);
  },
  jsonSchema: () => ({
    ...base.jsonSchema(),
    oneOf: [{ required: ['noiseMultiplier'] }, { required: ['targetEpsilon'] }],
  }),
};

/** Architectures with a `norm` option (BatchNorm by default): DP-SGD needs `norm: 'group'` or `'none'`. */
const NORM_OPTION_MODELS: readonly string[] = ['small-cnn', 'resnet18', 'resnet34', 'resnet-narrow'];
/** Architectures without any batch normalization. */
const NO_BATCH_NORM_MODELS: readonly string[] = ['mlp', ...attackModelKinds];

/** The run's model must have no batch normalization: per-example clipping does not bound an example's influence through batch statistics. */
function modelIssues(run: DefenseRunFacts): OptionIssue[] {
  const model = run.model;
  if (model === undefined || NO_BATCH_NORM_MODELS.includes(model.name) || !modelNames.includes(model.name)) return [];
  const norm = model.options.norm;
  if (NORM_OPTION_MODELS.includes(model.name)) {
    if (norm === 'group' || norm === 'none') return [];
    return [
      {
        path: '',
        expected: `model.options.norm 'group' (or 'none') for model ${model.name}: DP-SGD does not hold with batch normalization, which mixes the examples of a batch`,
        got: `model.options.norm ${norm === undefined ? "absent ('batch', the default)" : describeValue(norm)}`,
      },
    ];
  }
  return [
    {
      path: '',
      expected: `a model without batch normalization (mlp, or ${NORM_OPTION_MODELS.join(', ')} with model.options.norm 'group'): DP-SGD does not hold with batch normalization`,
      got: `model.name ${JSON.stringify(model.name)} (batch normalization, no norm option)`,
    },
  ];
}

/**
 * The privacy parameters the accountant cannot honour, found before anything trains: a δ of 1/N or
 * more (publishing each training example with probability δ meets it), and a
 * `targetEpsilon` at or below the smallest ε > 0 its RDP orders certify at that δ (σ would have to
 * drown every gradient before the accountant reports it, so the search for σ cannot land).
 */
function privacyIssues(o: DpSgdDefenseOptions, run: DefenseRunFacts): OptionIssue[] {
  const issues: OptionIssue[] = [];
  const n = run.members;
  if (n !== undefined && o.delta >= 1 / n)
    issues.push({
      path: 'delta',
      expected: `a number below 1/N = ${Number((1 / n).toPrecision(6))} (N = ${n} examples the target trains on; a mechanism that publishes each example with probability δ, δ·N ≥ 1 of them in the clear, meets any ε at such a δ)`,
      got: describeValue(o.delta),
    });
  const floor = smallestCertifiableEpsilon({ delta: o.delta }).epsilon;
  if (o.targetEpsilon !== undefined && o.targetEpsilon <= floor)
    issues.push({
      path: 'targetEpsilon',
      expected: `a number above ${Number(floor.toPrecision(6))}, the smallest ε > 0 the accountant certifies at delta ${o.delta} however much noise is added (its RDP orders, Opacus' grid, end at 63): raise targetEpsilon, or raise delta (keeping it below 1/N)`,
      got: describeValue(o.targetEpsilon),
    });
  return issues;
}

/** Steps a DP-SGD training of `size` members runs: `epochs × ceil(N / B)` with B = max(1, round(q·N)). */
export function dpSgdSteps(size: number, sampleRate: number, epochs: number): { batchSize: number; steps: number } {
  const batchSize = Math.max(1, Math.round(sampleRate * size));
  return { batchSize, steps: epochs * Math.ceil(size / batchSize) };
}

/**
 * DP-SGD (docs/protocol.md §4.16) in a run: `@mia/defense-dp`'s plugin with per-layer per-example
 * norms (one backward pass), the run's optimizer and schedule (its learning rate and epochs unless the
 * params' `lr` / `epochs` replace them), an expected batch of q·N in place of `training.batchSize`. With `targetEpsilon`, σ comes from the accountant for the run's steps. The
 * accountant's (ε, δ) is recorded as the unit's `privacy` metric; the result row reports it.
 */
export const dpSgdDefense = defineDefense({
  name: 'dp-sgd',
  description: 'DP-SGD with the RDP accountant (per-example clipping and Gaussian noise, docs/protocol.md §4.16)',
  schema: dpSgdDefenseSchema,
  check(o, run) {
    const issues = [...modelIssues(run), ...privacyIssues(o, run)];
    if (o.sampling === 'poisson' && run.training.augment !== undefined)
      issues.push({
        path: 'sampling',
        expected: "'shuffle', or a run without training.augment (Poisson batches are drawn by DP-SGD itself, without augmentation)",
        got: `'poisson' with training.augment ${JSON.stringify(run.training.augment)}`,
      });
    if (o.lr !== undefined && run.training.schedule.type === 'piecewise')
      issues.push({ path: 'lr', expected: 'no lr with training.schedule piecewise (its ranges set absolute rates)', got: String(o.lr) });
    return issues;
  },
  async train(ctx) {
    const o = ctx.options;
    const training = { ...ctx.training, ...(o.lr === undefined ? {} : { lr: o.lr }), ...(o.epochs === undefined ? {} : { epochs: o.epochs }) };
    const { batchSize, steps } = dpSgdSteps(ctx.members.size, o.sampleRate, training.epochs);
    const noiseMultiplier = o.noiseMultiplier ?? noiseMultiplierFor({ targetEpsilon: o.targetEpsilon!, sampleRate: o.sampleRate, steps, delta: o.delta });
    // The audit's canaries (target only, dedicated coordinates: the model trains exactly as without them).
    const canaries =
      o.audit === undefined || !ctx.label.endsWith('/target')
        ? undefined
        : createGradientCanaries({ count: o.audit.canaries, seed: deriveSeed(ctx.seed, 'dp-audit-canaries'), placement: 'dedicated' });
    const plugin = dpSgdPlugin({
      data: ctx.members,
      sampleRate: o.sampleRate,
      clipNorm: o.clipNorm,
      noiseMultiplier,
      sampling: o.sampling,
      tapedForward: classifierTapedForward,
      ...(canaries === undefined ? {} : { canaries }),
    });
    ctx.log?.(
      `DP-SGD C=${o.clipNorm}, σ=${noiseMultiplier.toFixed(4)}, q=${o.sampleRate}, batch ${batchSize}, ${steps} steps (${o.sampling}), lr ${training.lr}`,
    );
    try {
      await trainWithPlugins({ ...ctx, training: { ...training, batchSize } }, [plugin]);
    } catch (error) {
      canaries?.dispose();
      throw error;
    }
    const p = plugin.privacy(o.delta);
    const audit = canaries === undefined ? undefined : canaryAudit(canaries, p.epsilon, o);
    if (audit !== undefined) ctx.log?.(`DP audit: ${audit.message}`);
    ctx.recordMetrics?.({
      privacy: {
        mechanism: 'dp-sgd',
        // σ = 0 gives ε = ∞, which JSON cannot hold: null means "no guarantee".
        epsilon: Number.isFinite(p.epsilon) ? p.epsilon : null,
        delta: p.delta,
        order: p.order,
        steps: p.steps,
        sampleRate: p.sampleRate,
        noiseMultiplier: p.noiseMultiplier,
        clipNorm: p.clipNorm,
        sampling: p.sampling,
        covered: p.covered,
        ...(o.targetEpsilon === undefined ? {} : { targetEpsilon: o.targetEpsilon }),
        ...(audit === undefined ? {} : { audit: auditRecord(audit, o.audit!.canaries) }),
      },
    });
  },
});

/** Scores the trained canaries and audits the accountant's ε with them (the scores never see the inclusion vector). */
function canaryAudit(canaries: ReturnType<typeof createGradientCanaries>, epsilon: number, o: DpSgdDefenseOptions): DpAudit {
  try {
    const scores = canaries.scores();
    return auditCanaryScores({
      scores,
      inclusion: canaries.inclusion(),
      claimedEpsilon: epsilon,
      delta: o.delta,
      confidence: o.audit!.confidence,
      decision: o.audit!.decision,
    });
  } finally {
    canaries.dispose();
  }
}

/** The audit as a row's results store it (`privacy.audit`), every choice stated. */
function auditRecord(audit: DpAudit, canaries: number) {
  const { guesses, oneRun, gdp } = audit.audit;
  return {
    canaries,
    canaryKind: 'white-box gradient (dedicated coordinates, norm 10·C)',
    broken: audit.broken,
    decidedBy: audit.decidedBy,
    empiricalEpsilon: finiteOrNull(audit.empiricalEpsilon),
    confidence: audit.confidence,
    canRefute: audit.canRefute,
    guesses: { planned: guesses.guesses, made: guesses.made, correct: guesses.correct, included: guesses.included },
    oneRun: { epsilon: finiteOrNull(oneRun.epsilon), maxEpsilon: finiteOrNull(oneRun.maxEpsilon) },
    gdp: { mu: finiteOrNull(gdp.mu), epsilon: finiteOrNull(gdp.epsilon), maxMu: finiteOrNull(gdp.maxMu), maxEpsilon: finiteOrNull(gdp.maxEpsilon) },
    message: audit.message,
  };
}

const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null);
