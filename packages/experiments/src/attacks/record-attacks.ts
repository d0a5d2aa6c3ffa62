import type * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, deriveSeed, option, optionsSchema } from '@mia/core';
import {
  boundaryDistanceAttack,
  boundaryDistanceOptionsSchema,
  boundaryDistances,
  qmiaAttack,
  qmiaOptionsSchema,
  type ModelSignals,
  type ShadowAttack,
} from '@mia/attacks';
import { defineAttack, type AttackCreateContext, type AttackRecords } from './definition';

/** The records of `ctx`. @throws InvalidArgumentError naming the attack when the runner gave none. */
function recordsOf(ctx: AttackCreateContext, name: string): AttackRecords {
  if (ctx.records === undefined)
    throw new InvalidArgumentError(`attack ${ctx.label} (${name}) needs the run's records (needs.records / needs.labelQueries), got none`);
  return ctx.records;
}

/** The examples at `indices` as one tensor, passed to `use` and disposed after it. */
function withInputs<T>(records: AttackRecords, indices: readonly number[], use: (x: tf.Tensor) => T): T {
  const x = records.dataset.gather(indices);
  try {
    return use(x);
  } finally {
    x.dispose();
  }
}

/** The smallest and largest input value of the audit examples (the boundary search's default domain). */
function inputRange(records: AttackRecords): { clipMin: number; clipMax: number } {
  return withInputs(records, records.audit, (x) => {
    let clipMin = Infinity;
    let clipMax = -Infinity;
    for (const v of x.dataSync()) {
      if (v < clipMin) clipMin = v;
      if (v > clipMax) clipMax = v;
    }
    return { clipMin, clipMax };
  });
}

/** Checks that the target's signals are those of the audit examples. */
function checkAudit(label: string, records: AttackRecords, target: ModelSignals): void {
  if (target.size !== records.audit.length)
    throw new InvalidArgumentError(`${label}.score: the target's signals must cover the ${records.audit.length} audit examples, got ${target.size}`);
}

/**
 * QMIA (Bertran et al. 2023) as a runner attack: the regressor trains on the population (examples the
 * target never trained on, with the target's signals on them and their inputs as features), then
 * scores the audit examples with their inputs. No shadow or reference model.
 */
export const qmiaDefinition = defineAttack({
  name: 'qmia',
  description: "QMIA (Bertran et al. 2023): quantile regression of the target's hinge score on public non-members (the population), no shadow model",
  schema: qmiaOptionsSchema,
  needs: { shadow: false, records: true },
  trained: true,
  create: (options, ctx): ShadowAttack => {
    const records = recordsOf(ctx, 'qmia');
    const qmia = qmiaAttack({ ...options, name: ctx.label, seed: ctx.seed });
    const audit = <T>(target: ModelSignals, use: (features: tf.Tensor) => T): T => {
      checkAudit(ctx.label, records, target);
      return withInputs(records, records.audit, use);
    };
    return {
      name: ctx.label,
      async prepare() {
        const signals = await records.targetPopulation();
        const features = records.dataset.gather(records.population);
        try {
          await qmia.prepare({ signals, features });
        } finally {
          features.dispose();
        }
      },
      score: (target) => audit(target, (features) => qmia.score({ signals: target, features })),
      decide: (target) => audit(target, (features) => qmia.decide({ signals: target, features })),
      dispose: () => qmia.dispose(),
    };
  },
});

/** The search params of the runner's boundary-distance attack: absent clip bounds are the audit inputs' range. */
const boundaryDistanceSchema = optionsSchema({
  ...boundaryDistanceOptionsSchema.fields,
  clipMin: option.number({ description: 'smallest input value (absent: the smallest value of the audit examples)' }),
  clipMax: option.number({ description: 'largest input value (absent: the largest value of the audit examples)' }),
  parallel: option.integer({
    min: 1,
    default: 16,
    description:
      "records searched at once, their label queries sent in shared model calls (the distances do not depend on it; a larger value fills the model's batches when the budget is small)",
  }),
  batchSize: option.integer({ min: 1, default: 256, description: 'most label queries per model call (the distances do not depend on it)' }),
});

/**
 * The label-only boundary-distance attack (Choquette-Choo et al. 2021) as a runner attack: `prepare`
 * measures, with label queries only (`boundaryDistances`, at most `budget` per record), each shadow
 * model's distances on its members and non-members and fits one threshold on them, then measures the
 * target's on the audit examples; `score` returns those. Its outputs are cached like an NN attack's,
 * so a rerun sends no query.
 */
export const boundaryDistanceDefinition = defineAttack({
  name: 'boundary-distance',
  description:
    'label-only boundary distance (Choquette-Choo et al. 2021): HopSkipJump distance under a per-record query budget, threshold fitted on the shadows',
  schema: boundaryDistanceSchema,
  needs: { shadow: true, labelQueries: true },
  trained: true,
  check: (options) =>
    options.clipMin !== undefined && options.clipMax !== undefined && !(options.clipMin < options.clipMax)
      ? [{ path: 'clipMax', expected: `a number above clipMin (${options.clipMin})`, got: String(options.clipMax) }]
      : [],
  create: (options, ctx): ShadowAttack => {
    const records = recordsOf(ctx, 'boundary-distance');
    const { clipMin, clipMax, ...params } = options;
    const inner = boundaryDistanceAttack({ name: ctx.label });
    let targetDistance: Float64Array | undefined;
    /** Distances of `indices` under label queries of one model. */
    const distances = async (model: 'target' | number, indices: readonly number[], clip: { clipMin: number; clipMax: number }) => {
      const oracle = await records.labelOracle(model);
      const y = Int32Array.from(indices, (i) => records.dataset.y[i]!);
      const x = records.dataset.gather(indices);
      try {
        return (await boundaryDistances(oracle, { x, y }, { ...params, ...clip, seed: deriveSeed(ctx.seed, 'boundary-distance', String(model)) })).distance;
      } finally {
        x.dispose();
      }
    };
    const concat = (parts: readonly Float64Array[]) => Float64Array.from(parts.flatMap((p) => Array.from(p)));
    return {
      name: ctx.label,
      async prepare(fit) {
        const range = clipMin === undefined || clipMax === undefined ? inputRange(records) : undefined;
        const clip = { clipMin: clipMin ?? range!.clipMin, clipMax: clipMax ?? range!.clipMax };
        const members: Float64Array[] = [];
        const nonMembers: Float64Array[] = [];
        for (const [k, shadow] of records.shadows.entries()) {
          members.push(await distances(k, shadow.memberIdx, clip));
          nonMembers.push(await distances(k, shadow.nonMemberIdx, clip));
        }
        await inner.prepare({
          members: { ...fit.members, boundaryDistance: concat(members) },
          nonMembers: { ...fit.nonMembers, boundaryDistance: concat(nonMembers) },
        });
        targetDistance = await distances('target', records.audit, clip);
      },
      score(target) {
        checkAudit(ctx.label, records, target);
        if (targetDistance === undefined) throw new InvalidArgumentError(`${ctx.label}.score: call prepare first (it measures the target's distances)`);
        return inner.score({ ...target, boundaryDistance: targetDistance });
      },
      decide: (target) => inner.decide!({ ...target, boundaryDistance: targetDistance! }),
      dispose: () => inner.dispose(),
    };
  },
});
