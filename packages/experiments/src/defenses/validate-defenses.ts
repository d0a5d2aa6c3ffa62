import { describeValue, type OptionIssue } from '@mia/core';
import type { DefenseLookup, DefenseRunFacts } from './definition';

const at = (base: string, key: string) => (base === '' ? key : key === '' ? base : `${base}.${key}`);

/**
 * The problems of one defense entry `{ name, params }` found before anything loads: an unknown name,
 * a missing inference set, params that fail the defense's schema (unknown keys, types, ranges) and
 * the defense's own checks against the run.
 * @param defenses - The defenses the run knows (the registry, or `run.defenses` inside a defense's check).
 * @param run - What the run provides; `undefined` when the config's training or partition is itself
 *   invalid: then only the params' schema is checked.
 * @param path - where the entry sits, e.g. `defenses[4]` (issues read `defenses[4].params.alpha`).
 */
export function defenseParamIssues(defenses: DefenseLookup, name: string, params: unknown, run: DefenseRunFacts | undefined, path: string): OptionIssue[] {
  const definition = defenses.find(name);
  if (definition === undefined) {
    return [
      {
        path: at(path, 'name'),
        expected: `one of ${defenses.names().join(', ')} (user defenses: list the module that registers them in \`modules\`)`,
        got: describeValue(name),
      },
    ];
  }
  if (definition.needsInference === true && run !== undefined && !run.hasInference) {
    return [
      {
        path: at(path, 'name'),
        expected: `a defense that runs on partition.preset ${run.preset} (${JSON.stringify(name)} needs a partition with an inference set: PAST6 or CCL5)`,
        got: describeValue(name),
      },
    ];
  }
  const issues = definition.schema.check(params, at(path, 'params'));
  if (issues.length > 0 || definition.check === undefined || run === undefined) return issues;
  const options = definition.schema.parse(params, name);
  return definition.check(options, run).map((i) => ({ ...i, path: at(at(path, 'params'), i.path) }));
}

/** One defense of a config as written: possibly with a `grid` of parameter values. */
interface DefenseEntry {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly grid?: Readonly<Record<string, readonly unknown[]>> | undefined;
}

/**
 * The problems of `defenses[index]`, grid included: every grid combination is checked, and a bad
 * grid value is reported where it is written (`defenses[2].grid.alpha[1]`).
 * @param defenses - The defenses the run knows (the registry).
 */
export function defenseEntryIssues(defenses: DefenseLookup, entry: DefenseEntry, index: number, run: DefenseRunFacts | undefined): OptionIssue[] {
  const path = `defenses[${index}]`;
  const grid = Object.entries(entry.grid ?? {});
  let combos: Array<{ params: Record<string, unknown>; picks: Record<string, number> }> = [{ params: { ...entry.params }, picks: {} }];
  for (const [key, values] of grid)
    combos = combos.flatMap((c) => values.map((v, j) => ({ params: { ...c.params, [key]: v }, picks: { ...c.picks, [key]: j } })));
  const seen = new Map<string, OptionIssue>();
  for (const combo of combos) {
    for (const issue of defenseParamIssues(defenses, entry.name, combo.params, run, path)) {
      const key = grid
        .map(([k]) => k)
        .find((k) => issue.path === `${path}.params.${k}` || issue.path.startsWith(`${path}.params.${k}.`) || issue.path.startsWith(`${path}.params.${k}[`));
      const moved = key === undefined ? issue : { ...issue, path: issue.path.replace(`${path}.params.${key}`, `${path}.grid.${key}[${combo.picks[key]}]`) };
      seen.set(`${moved.path}|${moved.expected}|${moved.got}`, moved);
    }
  }
  return [...seen.values()];
}
