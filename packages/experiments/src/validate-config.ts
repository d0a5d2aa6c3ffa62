import { describeValue, type OptionIssue } from '@mia/core';
import { PAST6, CCL4, CCL5, RELAX5 } from '@mia/data';
import { modelNames } from '@mia/models';
import { ATTACK_NAMES } from './attack-registry';
import type { ExperimentConfig } from './config';
import type { DefenseRunFacts } from './defense-definition';
import { defenseEntryIssues } from './validate-defenses';

const PRESET_ROLES: Record<string, readonly string[]> = { PAST6: PAST6.roles, CCL4: CCL4.roles, CCL5: CCL5.roles, RELAX5: RELAX5.roles };

/** What the defenses of `config` may rely on, known before any data loads. */
export function runFacts(config: Pick<ExperimentConfig, 'training' | 'partition'>): DefenseRunFacts {
  const roles = PRESET_ROLES[config.partition.preset] ?? [];
  return { training: config.training, preset: config.partition.preset, hasInference: roles.some((r) => r === 'inference' || r.endsWith('_inference')) };
}

/**
 * The problems of a config whose shape is valid, found before any data loads: every defense's
 * params and grid values against its schema and checks, the model name and the attack names.
 * @returns issues with config paths (`defenses[4].params.alpha`); empty when the config is valid.
 */
export function experimentIssues(config: ExperimentConfig): OptionIssue[] {
  const run = runFacts(config);
  const issues = config.defenses.flatMap((d, i) => defenseEntryIssues(d, i, run));
  const models = modelNames;
  if (!models.includes(config.model.name)) issues.push({ path: 'model.name', expected: `one of ${models.join(', ')}`, got: describeValue(config.model.name) });
  config.attacks.forEach((name, i) => {
    if (!ATTACK_NAMES.includes(name)) issues.push({ path: `attacks[${i}]`, expected: `one of ${ATTACK_NAMES.join(', ')}`, got: describeValue(name) });
  });
  return issues;
}
