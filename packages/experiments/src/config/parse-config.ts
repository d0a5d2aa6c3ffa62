import { formatOptionIssues, InvalidArgumentError } from '@mia/core';
import { experimentSchema, type ExperimentConfig } from '../schema/run-schema';
import { shapeIssues } from './shape-issues';
import { experimentIssues } from './validate-config';

/**
 * Validates an experiment config (parsed JSON or YAML) whole and fills the defaults. One pass finds
 * every problem: the shape (unknown keys, types, ranges, enum values), every defense's `params` (and
 * `grid` values) against that defense's schema, the dataset, model and attack names, and implausible
 * sizes (a batch larger than the training set), all before any data loads. User defenses must be
 * registered first (see `modules`).
 * @throws InvalidArgumentError listing every problem with its path, the expected (allowed) and the
 *   actual value, e.g. `defenses[4].params.alpha: expected a number in [0, 1], got 1.5`.
 */
export function parseExperimentConfig(input: unknown, source = 'config'): ExperimentConfig {
  const result = experimentSchema.safeParse(input);
  const shape = result.success ? [] : shapeIssues(experimentSchema, input);
  const reported = new Set(shape.map((i) => i.path));
  const issues = [...shape, ...experimentIssues(input, result.data).filter((i) => !reported.has(i.path))];
  if (issues.length > 0) throw new InvalidArgumentError(`${source}: invalid experiment config:\n  ${formatOptionIssues(issues).join('\n  ')}`);
  return result.data!;
}
