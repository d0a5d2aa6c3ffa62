import { describeValue, type OptionIssue } from '@mia/core';
import { attackConfigOf, type AttackEntry } from '../schema/run-schema';
import type { AttackDefinition, AttackRunFacts } from './definition';

/** The attacks a run knows, as the check sees them (the registry). */
export interface AttackLookup {
  /** The attack registered under `name`, or `undefined`. */
  find(name: string): AttackDefinition<unknown> | undefined;
  /** Names of every registered attack (for messages that list them). */
  names(): string[];
}

/**
 * The problems of `attacks[index]` found before anything trains: an unknown name, params that fail
 * the attack's schema (unknown keys, types, ranges; paths `attacks[2].params.epochs`) and the
 * attack's own checks against the run.
 * @param run - What the run provides; `undefined` when the config's training or partition is itself
 *   invalid: then only the params' schema is checked.
 */
export function attackEntryIssues(attacks: AttackLookup, entry: AttackEntry, index: number, run: AttackRunFacts | undefined): OptionIssue[] {
  const { name, params } = attackConfigOf(entry);
  const path = typeof entry === 'string' ? `attacks[${index}]` : `attacks[${index}].name`;
  const definition = attacks.find(name);
  if (definition === undefined)
    return [
      {
        path,
        expected: `one of ${attacks.names().join(', ')} (user attacks: list the module that registers them in \`modules\`)`,
        got: describeValue(name),
      },
    ];
  const issues = definition.schema.check(params, `attacks[${index}].params`);
  if (issues.length > 0 || definition.check === undefined || run === undefined) return issues;
  const options = definition.schema.parse(params, name);
  return definition.check(options, run).map((i) => ({ ...i, path: i.path === '' ? `attacks[${index}].params` : `attacks[${index}].params.${i.path}` }));
}

/**
 * Two attacks of a config reporting under the same name (a name twice, or a label equal to another
 * entry's name): their results would overwrite each other. Entries that did not parse (`undefined`)
 * are skipped; the shape check reports them.
 */
export function duplicateAttackIssues(entries: ReadonlyArray<AttackEntry | undefined>): OptionIssue[] {
  const seen = new Map<string, number>();
  const issues: OptionIssue[] = [];
  entries.forEach((entry, i) => {
    if (entry === undefined) return;
    const { label } = attackConfigOf(entry);
    const first = seen.get(label);
    if (first === undefined) seen.set(label, i);
    else
      issues.push({
        path: typeof entry === 'string' ? `attacks[${i}]` : entry.label === undefined ? `attacks[${i}].name` : `attacks[${i}].label`,
        expected: `a name no other attack of the run reports under (attacks[${first}] reports as ${JSON.stringify(label)}; give one a label)`,
        got: describeValue(label),
      });
  });
  return issues;
}

/**
 * The problems of a config's attacks with its `references` (before anything trains): an attack that
 * needs reference models in a config without `references` (path `references`), fewer models than
 * it needs (`references.count`), and `references` that no attack of the run uses are fine (they are
 * trained anyway, e.g. to export them).
 * @param references - The config's `references` as parsed (undefined: absent).
 */
export function referenceNeedIssues(
  attacks: AttackLookup,
  entries: ReadonlyArray<AttackEntry | undefined>,
  references: { readonly count?: number | undefined; readonly import?: string | undefined } | undefined,
): OptionIssue[] {
  const issues: OptionIssue[] = [];
  entries.forEach((entry, i) => {
    if (entry === undefined) return;
    const { name } = attackConfigOf(entry);
    const min = attacks.find(name)?.needs.references?.min;
    if (min === undefined) return;
    if (references === undefined)
      issues.push({
        path: 'references',
        expected: `{ count: N } (N ≥ ${min} reference models trained by the run) or { import: "<dir>" }: attacks[${i}] (${name}) needs reference models`,
        got: 'none',
      });
    else if (references.count !== undefined && references.count < min)
      issues.push({
        path: 'references.count',
        expected: `at least ${min} (attacks[${i}] (${name}) needs ${min} reference models)`,
        got: describeValue(references.count),
      });
  });
  // One issue per missing `references`, naming the first attack that needs them.
  return issues.filter((issue, k) => issue.path !== 'references' || issues.findIndex((j) => j.path === 'references') === k);
}
