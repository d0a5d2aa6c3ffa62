import { describeValue, type OptionIssue } from '@mia/core';
import { CCL4, CCL5, DATASETS, PAST6, RELAX5, type DatasetInfo } from '@mia/data';
import type { ExperimentConfig } from '../schema/run-schema';
import { shadowRoles } from '../plan/unit-roles';
import { attackNeedsShadow } from '../attacks/registry';
import { capAndValidation, VALIDATION_POOL } from '../data/validation-slice';

const PRESETS = { CCL4, CCL5, PAST6, RELAX5 } as const;
const STAND_INS = Object.values(DATASETS)
  .filter((d) => d.source === 'stand-in')
  .map((d) => d.name);

/** The sizes a config's data will have, worked out from the config alone (no data loads). */
export interface PlannedSizes {
  /** Examples of the dataset: `dataset.size` for a stand-in, the official size for real data. */
  readonly examples: number;
  /** Examples of each partition role before `partition.maxPerRole`. */
  readonly uncapped: Readonly<Record<string, number>>;
  /** Examples of each role as the run uses them (validation slice cut, cap applied). */
  readonly roles: Readonly<Record<string, number>>;
}

/**
 * The partition sizes of a config as `prepareData` will cut them (the same split and cap), without
 * loading data; `undefined` for an unknown dataset or preset (reported elsewhere).
 */
export function plannedSizes(config: Pick<ExperimentConfig, 'dataset' | 'partition' | 'seed'>): PlannedSizes | undefined {
  const info = (DATASETS as Record<string, DatasetInfo>)[config.dataset.name];
  const preset = PRESETS[config.partition.preset];
  if (info === undefined || preset === undefined) return undefined;
  const examples = info.source === 'stand-in' ? (config.dataset.size ?? info.size) : info.size;
  const full = preset.split(examples, config.seed);
  const sizes = (roles: Readonly<Record<string, readonly number[]>>) => Object.fromEntries(Object.entries(roles).map(([k, v]) => [k, v.length]));
  const pool = config.partition.validation === undefined ? undefined : VALIDATION_POOL[config.partition.preset];
  const fits = pool === undefined || config.partition.validation! < (full.roles[pool]?.length ?? 0);
  return {
    examples,
    uncapped: sizes(full.roles),
    roles: fits ? sizes(capAndValidation(full, config.partition.maxPerRole, config.partition.validation).roles) : sizes(full.roles),
  };
}

/** The partition roles whose examples a run trains on: the target's, and the shadows' when an attack of it uses shadow models. */
const trainedRoles = (config: Pick<ExperimentConfig, 'attacks' | 'shadowModels'>) => [
  'target_train',
  ...(shadowRoles(config, attackNeedsShadow).length > 0 ? ['shadow_train'] : []),
];

/**
 * Sizes that cannot give a meaningful run, found before any data loads: a batch larger than the
 * training set of a model (one step per epoch on all of it, which can leave a model at chance
 * level), and a validation slice that does not fit its pool.
 * @returns issues with config paths; empty when the sizes are plausible.
 */
export function sizeIssues(config: ExperimentConfig): OptionIssue[] {
  const planned = plannedSizes(config);
  if (planned === undefined) return [];
  const issues: OptionIssue[] = [];
  const { validation } = config.partition;
  const pool = validation === undefined ? undefined : VALIDATION_POOL[config.partition.preset];
  if (validation !== undefined && pool !== undefined && validation >= (planned.uncapped[pool] ?? 0))
    issues.push({
      path: 'partition.validation',
      expected: `fewer than the ${planned.uncapped[pool] ?? 0} examples of ${config.partition.preset}'s ${pool} role (dataset of ${planned.examples})`,
      got: describeValue(validation),
    });
  const smallest = trainedRoles(config)
    .filter((role) => planned.roles[role] !== undefined)
    .reduce<[string, number] | undefined>((min, role) => (min === undefined || planned.roles[role]! < min[1] ? [role, planned.roles[role]!] : min), undefined);
  if (smallest !== undefined && config.training.batchSize > smallest[1])
    issues.push({
      path: 'training.batchSize',
      expected: `at most the ${smallest[1]} examples a model trains on (${config.partition.preset} ${smallest[0]}${config.partition.maxPerRole === undefined ? '' : ` with maxPerRole ${config.partition.maxPerRole}`}, of ${planned.examples} examples)`,
      got: describeValue(config.training.batchSize),
    });
  return issues;
}

/**
 * Warnings about sizes that run but probably not as meant, printed before training: a
 * `partition.maxPerRole` above what every role has (the cap does nothing; the run trains on less
 * than asked), and a `dataset.size` on real data (only stand-ins take it).
 */
export function sizeWarnings(config: ExperimentConfig): string[] {
  const planned = plannedSizes(config);
  if (planned === undefined) return [];
  const warnings: string[] = [];
  const cap = config.partition.maxPerRole;
  const largest = Math.max(...Object.values(planned.uncapped));
  if (cap !== undefined && cap > largest) {
    const listed = trainedRoles(config)
      .filter((role) => planned.roles[role] !== undefined)
      .map((role) => `${role} ${planned.roles[role]}`)
      .join(', ');
    warnings.push(
      `partition.maxPerRole ${cap} is more than any role of ${config.partition.preset} has on ${planned.examples} examples (the largest has ${largest}), so it caps nothing: the models train on ${listed}${
        DATASETS[config.dataset.name as keyof typeof DATASETS]?.source === 'stand-in' ? '; raise dataset.size for more' : ''
      }`,
    );
  }
  const info = DATASETS[config.dataset.name as keyof typeof DATASETS];
  if (config.dataset.size !== undefined && info?.source === 'real' && config.dataset.size !== info.size)
    warnings.push(
      `dataset.size ${config.dataset.size} is ignored: ${config.dataset.name} is real data with ${info.size} examples (only the stand-ins ${STAND_INS.join(' and ')} take a size); use partition.maxPerRole to train on fewer`,
    );
  return warnings;
}
