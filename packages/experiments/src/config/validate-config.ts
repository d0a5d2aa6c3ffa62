import { describeValue, type OptionIssue } from '@mia/core';
import { DATASETS, PAST6, CCL4, CCL5, RELAX5 } from '@mia/data';
import { modelNames } from '@mia/models';
import { registeredAttacks } from '../attacks/registry';
import { attackEntryIssues, duplicateAttackIssues, referenceNeedIssues } from '../attacks/validate-attacks';
import {
  attackConfigOf,
  attackEntrySchema,
  defenseSchema,
  experimentSchema,
  referencesSchema,
  trainingSchema,
  type ExperimentConfig,
} from '../schema/run-schema';
import { plannedSizes, sizeIssues } from './sizes';
import { controlCharacterIssues } from './control-characters';
import type { DefenseRunFacts } from '../defenses/definition';
import { registeredDefenses } from '../defenses/registry';
import { defenseEntryIssues } from '../defenses/validate-defenses';

const PRESET_ROLES: Record<string, readonly string[]> = { PAST6: PAST6.roles, CCL4: CCL4.roles, CCL5: CCL5.roles, RELAX5: RELAX5.roles };

/** The dataset names a config may use (`dataset.name`). */
export const DATASET_NAMES: readonly string[] = Object.keys(DATASETS);

/** The target's planned training-set size, or undefined (no dataset or seed yet, or a dataset too small to split: the size check reports that). */
function plannedMembers(
  config: Pick<ExperimentConfig, 'partition'> & { readonly dataset?: ExperimentConfig['dataset'] | undefined; readonly seed?: number | undefined },
): number | undefined {
  const { dataset, seed } = config;
  if (dataset === undefined || seed === undefined) return undefined;
  try {
    return plannedSizes({ dataset, partition: config.partition, seed })?.roles.target_train;
  } catch {
    return undefined;
  }
}

/** What the defenses of `config` may rely on, known before any data loads (`members` needs its dataset and seed). */
export function runFacts(
  config: Pick<ExperimentConfig, 'training' | 'partition'> & {
    readonly model?: ExperimentConfig['model'] | undefined;
    readonly dataset?: ExperimentConfig['dataset'] | undefined;
    readonly seed?: number | undefined;
  },
): DefenseRunFacts {
  const roles = PRESET_ROLES[config.partition.preset] ?? [];
  const members = plannedMembers(config);
  return {
    training: config.training,
    preset: config.partition.preset,
    hasInference: roles.some((r) => r === 'inference' || r.endsWith('_inference')),
    defenses: registeredDefenses,
    ...(config.model === undefined ? {} : { model: config.model }),
    ...(members === undefined ? {} : { members }),
  };
}

const field = (value: unknown, key: string): unknown => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined);

/** A name that must be one of `allowed`; non-strings are the shape check's to report. */
function nameIssue(path: string, value: unknown, allowed: readonly string[]): OptionIssue[] {
  return typeof value === 'string' && value !== '' && !allowed.includes(value)
    ? [{ path, expected: `one of ${allowed.join(', ')}`, got: describeValue(value) }]
    : [];
}

/** The problems of a `references` entry beyond its shape: exactly one of `count` and `import`, an even count, `scheme` only with `count`. */
function referencesIssues(references: ExperimentConfig['references']): OptionIssue[] {
  if (references === undefined) return [];
  const issues: OptionIssue[] = [];
  const { count, scheme } = references;
  if (count === undefined && references.import === undefined)
    issues.push({ path: 'references', expected: '{ count: N, scheme? } (train N reference models) or { import: "<dir>" }', got: 'neither count nor import' });
  if (count !== undefined && references.import !== undefined)
    issues.push({
      path: 'references.import',
      expected: 'absent when references.count is given (train or import, not both)',
      got: describeValue(references.import),
    });
  if (count !== undefined && count % 2 !== 0)
    issues.push({ path: 'references.count', expected: 'an even number (half of the reference models keep each example)', got: describeValue(count) });
  if (scheme !== undefined && count === undefined)
    issues.push({
      path: 'references.scheme',
      expected: 'absent with references.import (the imported keep masks say who trained on what)',
      got: describeValue(scheme),
    });
  return issues;
}

/**
 * An attack that needs the target's outputs on population examples (`needs.population`, `needs.records`), against a defense that perturbs
 * its outputs while it trains (`perturbLogits`, e.g. MemGuard): the runner cannot query that target
 * on new examples as an attacker would see it, so the pair is refused.
 */
function populationIssues(entries: ReadonlyArray<ExperimentConfig['attacks'][number] | undefined>, defenses: readonly unknown[]): OptionIssue[] {
  const issues: OptionIssue[] = [];
  entries.forEach((entry, i) => {
    const needs = entry === undefined ? undefined : registeredAttacks.find(attackConfigOf(entry).name)?.needs;
    if (entry === undefined || (needs?.population !== true && needs?.records !== true)) return;
    defenses.forEach((d, j) => {
      const name = defenseSchema.safeParse(d).data?.name;
      if (name !== undefined && registeredDefenses.find(name)?.perturbLogits !== undefined)
        issues.push({
          path: typeof entry === 'string' ? `attacks[${i}]` : `attacks[${i}].name`,
          expected: `an attack that does not query the target on population examples: defense ${name} (defenses[${j}]) perturbs its outputs while it trains, so the runner cannot query it on new examples`,
          got: describeValue(attackConfigOf(entry).name),
        });
    });
  });
  return issues;
}

/**
 * The problems of a config beyond its shape, found before any data loads: every defense's params and
 * grid values against its schema and checks, the dataset, model and attack names, and (when the
 * whole config is well-formed) implausible sizes such as a batch larger than the training set, and
 * control characters in names and labels (`controlCharacterIssues`).
 * Works on a config whose shape is wrong too (each part that parses is checked), so that one pass
 * reports every problem.
 * @param input - The config as written (parsed JSON or YAML).
 * @param parsed - The config with defaults filled, when its shape is valid.
 * @returns issues with config paths (`defenses[4].params.alpha`); empty when the config is valid.
 */
export function experimentIssues(input: unknown, parsed?: ExperimentConfig): OptionIssue[] {
  const training = parsed?.training ?? trainingSchema.safeParse(field(input, 'training')).data;
  const partition = parsed?.partition ?? experimentSchema.shape.partition.safeParse(field(input, 'partition')).data;
  // Checks against the run (inference set, training.epochs) need both; without them only the params' schemas are checked.
  const model = parsed?.model ?? experimentSchema.shape.model.safeParse(field(input, 'model')).data;
  const dataset = parsed?.dataset ?? experimentSchema.shape.dataset.safeParse(field(input, 'dataset')).data;
  const seed = parsed?.seed ?? experimentSchema.shape.seed.safeParse(field(input, 'seed')).data;
  const run = training !== undefined && partition !== undefined ? runFacts({ training, partition, model, dataset, seed }) : undefined;
  const issues: OptionIssue[] = controlCharacterIssues(input);
  const defenses = parsed?.defenses ?? field(input, 'defenses');
  if (Array.isArray(defenses))
    defenses.forEach((entry, i) => {
      const defense = defenseSchema.safeParse(entry).data;
      if (defense !== undefined) issues.push(...defenseEntryIssues(registeredDefenses, defense, i, run));
    });
  issues.push(...nameIssue('dataset.name', field(field(input, 'dataset'), 'name'), DATASET_NAMES));
  issues.push(...nameIssue('model.name', field(field(input, 'model'), 'name'), modelNames));
  const attacks = parsed?.attacks ?? field(input, 'attacks');
  const references = parsed?.references ?? referencesSchema.safeParse(field(input, 'references')).data;
  issues.push(...referencesIssues(references));
  if (Array.isArray(attacks)) {
    const shadowModels = parsed?.shadowModels ?? experimentSchema.shape.shadowModels.safeParse(field(input, 'shadowModels')).data ?? 1;
    const attackRun =
      training !== undefined && partition !== undefined
        ? { training, preset: partition.preset, shadowModels, ...(references === undefined ? {} : { references }) }
        : undefined;
    const entries = attacks.map((entry) => attackEntrySchema.safeParse(entry).data);
    entries.forEach((entry, i) => {
      if (entry !== undefined) issues.push(...attackEntryIssues(registeredAttacks, entry, i, attackRun));
    });
    issues.push(...referenceNeedIssues(registeredAttacks, entries, field(input, 'references') === undefined ? undefined : (references ?? {})));
    if (Array.isArray(defenses)) issues.push(...populationIssues(entries, defenses));
    issues.push(...duplicateAttackIssues(entries));
  }
  if (training?.checkpoint === 'best-validation' && partition !== undefined && partition.validation === undefined)
    issues.push({
      path: 'training.checkpoint',
      expected: `"last", or "best-validation" with a validation slice (partition.validation, the examples the best epoch is chosen on)`,
      got: '"best-validation" without partition.validation',
    });
  if (parsed !== undefined && issues.length === 0) issues.push(...sizeIssues(parsed));
  return issues;
}
