import { InvalidArgumentError, option, optionsSchema, type OptionIssue } from '@mia/core';
import { concatSignals, liraAttack, rmiaAttack, selectSignals, type ReferenceAttack, type ShadowAttack } from '@mia/attacks';
import { defineAttack, type AttackCreateContext, type AttackReferences, type AttackRunFacts } from './definition';

const modelsField = option.integer({
  min: 2,
  description: "Use only the first this many reference models of the run (absent: all); an even number with references.scheme 'paired'",
});

/**
 * The reference models an attack uses: the first `models` of the run's (all when absent), over the
 * audit examples only or (`population`) with the population after them.
 * @throws InvalidArgumentError naming the attack when the run has no reference models, fewer than
 *   `models`, or no target signals on the population.
 */
function referencesFor(name: string, ctx: AttackCreateContext, models: number | undefined, population: boolean): AttackReferences {
  const refs = ctx.references;
  if (refs === undefined)
    throw new InvalidArgumentError(`attack ${ctx.label} (${name}) needs reference models: add references: { count: N } to the config, got none`);
  const count = models ?? refs.models.length;
  if (count > refs.models.length)
    throw new InvalidArgumentError(
      `attack ${ctx.label} (${name}): params.models must be at most the run's ${refs.models.length} reference models, got ${count}`,
    );
  if (population && refs.targetPopulation === undefined)
    throw new InvalidArgumentError(`attack ${ctx.label} (${name}) needs the target's signals on the population, got none`);
  const audit = Int32Array.from({ length: refs.auditSize }, (_, i) => i);
  const rows = (m: (typeof refs.models)[number]) => (population ? m : selectSignals(m, audit));
  return {
    ...refs,
    models: refs.models.slice(0, count).map(rows),
    keep: refs.keep.slice(0, count).map((k) => (population ? k : k.subarray(0, refs.auditSize))),
    seconds: refs.seconds.slice(0, count),
    cache: refs.cache.slice(0, count),
  };
}

/**
 * A reference attack as the runner's attack suite runs it: `prepare` ignores what it gets (the
 * definitions have `needs.shadow: false`: a stand-in, never shadow signals) and fits on the run's reference models; `score` gets the target's signals on the audit examples (members
 * then non-members) and, with a population, scores them together with the target's population
 * signals, returning the audit examples' scores.
 */
export function referenceShadowAttack(attack: ReferenceAttack, refs: AttackReferences, label: string): ShadowAttack {
  const withPopulation = (target: Parameters<ShadowAttack['score']>[0]) =>
    refs.models[0]!.size === refs.auditSize ? target : concatSignals([target, refs.targetPopulation!]);
  return {
    name: label,
    prepare: () => attack.prepare({ models: refs.models, keep: refs.keep }),
    score: (target) => {
      if (target.size !== refs.auditSize)
        throw new InvalidArgumentError(`${label}.score: the target's signals must cover the ${refs.auditSize} audit examples, got ${target.size}`);
      return attack.score(withPopulation(target)).slice(0, target.size);
    },
    dispose: () => attack.dispose(),
  };
}

/** Issues of `params.models` against the run's `references` (paths relative to `params`). */
function modelsIssues(models: number | undefined, run: AttackRunFacts): OptionIssue[] {
  const count = run.references?.count;
  if (models === undefined || count === undefined) return [];
  if (models > count) return [{ path: 'models', expected: `at most references.count (${count})`, got: String(models) }];
  if (models < count && (run.references?.scheme ?? 'carlini') === 'carlini')
    return [
      {
        path: 'models',
        expected: `references.count (${count}) with scheme "carlini" (a prefix of its models is not balanced: an example can be IN none of them); use scheme "paired" to compare counts in one run`,
        got: String(models),
      },
    ];
  if (models % 2 !== 0) return [{ path: 'models', expected: 'an even number (whole pairs of the "paired" scheme)', got: String(models) }];
  return [];
}

/** LiRA (docs/protocol.md §3.8) as a runner attack. */
export const liraDefinition = defineAttack({
  name: 'lira',
  description: "LiRA (Carlini et al. 2022): per-example Gaussians of the reference models' φ, online (IN and OUT) or offline (OUT)",
  schema: optionsSchema({
    mode: option.choice(['online', 'offline'], { default: 'online', description: 'online: IN and OUT references; offline: OUT only' }),
    fixVariance: option.boolean({ default: true, description: 'one σ pooled over every example and reference (recommended up to 64 references)' }),
    offlineForm: option.choice(['code', 'one-sided'], {
      default: 'code',
      description: "offline score: the authors' code (two-sided −log N) or the paper's one-sided Φ",
    }),
    perSide: option.choice(['smallest', 'all'], {
      default: 'smallest',
      description: "references per side: the same number for every example (the authors' code) or all",
    }),
    maxPerSide: option.integer({ min: 1, description: 'at most this many IN and OUT references per example' }),
    models: modelsField,
  }),
  // Fits on the reference models only (liraAttack's prepare gets their signals and keep masks): no shadow model.
  needs: { shadow: false, references: { min: 2 } },
  check: (options, run) => modelsIssues(options.models, run),
  create: (options, ctx) => {
    const refs = referencesFor('lira', ctx, options.models, false);
    const attack = liraAttack({
      mode: options.mode,
      fixVariance: options.fixVariance,
      offlineForm: options.offlineForm,
      perSide: options.perSide,
      ...(options.maxPerSide === undefined ? {} : { maxPerSide: options.maxPerSide }),
      name: ctx.label,
    });
    return referenceShadowAttack(attack, refs, ctx.label);
  },
});

/** RMIA (docs/protocol.md §3.9) as a runner attack; its population z is the run's population. */
export const rmiaDefinition = defineAttack({
  name: 'rmia',
  description: 'RMIA (Zarifzadeh et al. 2024): likelihood ratio of the target against the reference models, compared with population samples z',
  schema: optionsSchema({
    mode: option.choice(['offline', 'online'], { default: 'offline', description: 'offline: OUT references with the a correction; online: all references' }),
    a: option.number({ min: 0, max: 1, description: 'offline correction a (absent: tuned on the first reference model by AUC, as ML Privacy Meter)' }),
    gamma: option.number({ min: 0, exclusiveMin: true, default: 1, description: 'threshold γ on r(x)/r(z)' }),
    signal: option.choice(['softmax', 'taylor'], {
      default: 'softmax',
      description: "Pr(x|θ): the true-class softmax, or the RMIA code's soft-margin Taylor softmax",
    }),
    temperature: option.number({ min: 0, exclusiveMin: true, default: 2, description: 'temperature of the Taylor signal' }),
    trim: option.number({
      min: 0,
      max: 0.5,
      exclusiveMax: true,
      default: 0,
      description: 'fraction trimmed from each end before averaging the reference signals',
    }),
    models: modelsField,
  }),
  // Tunes `a` on its first reference model against the others and scores against the population: no shadow model.
  needs: { shadow: false, references: { min: 2 }, population: true },
  check: (options, run) => {
    const issues = modelsIssues(options.models, run);
    // Tuning a scores model 0 against the others' OUT signals: with 2 models, the examples model 1 trained on have none.
    const count = options.models ?? run.references?.count;
    if (issues.length === 0 && options.mode === 'offline' && options.a === undefined && count !== undefined && count < 4)
      issues.push({
        path: 'a',
        expected: `a number in [0, 1] with fewer than 4 reference models (tuning a scores the first model against the OUT models among the others; with ${count} some examples have none)`,
        got: 'absent (tune)',
      });
    return issues;
  },
  create: (options, ctx) => {
    const refs = referencesFor('rmia', ctx, options.models, true);
    const attack = rmiaAttack({
      mode: options.mode,
      a: options.a ?? 'tune',
      gamma: options.gamma,
      signal: options.signal === 'softmax' ? 'softmax' : { taylor: { temperature: options.temperature } },
      trim: options.trim,
      population: Int32Array.from({ length: refs.populationSize }, (_, j) => refs.auditSize + j),
      name: ctx.label,
    });
    return referenceShadowAttack(attack, refs, ctx.label);
  },
});
