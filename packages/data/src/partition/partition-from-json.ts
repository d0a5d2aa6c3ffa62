import { InvalidArgumentError, describeValue } from '@mia/core';
import type { ModelSplit, Partition } from './partition';

function checkIndexArray(where: string, value: unknown, n: number): number[] {
  if (!Array.isArray(value)) throw new InvalidArgumentError(`partitionFromJson: ${where} must be an array of indices, got ${describeValue(value)}`);
  for (let i = 0; i < value.length; i++) {
    const j = value[i] as unknown;
    if (typeof j !== 'number' || !Number.isInteger(j) || j < 0 || j >= n) {
      throw new InvalidArgumentError(`partitionFromJson: ${where}[${i}] must be an integer in [0, ${n - 1}], got ${describeValue(j)}`);
    }
  }
  return value as number[];
}

/**
 * Checks that index arrays never share an index.
 * @throws InvalidArgumentError naming the index and the two arrays that both hold it.
 */
export function checkDisjoint(where: string, arrays: Readonly<Record<string, readonly number[]>>, n: number): void {
  const owner = new Int32Array(n).fill(-1);
  const names = Object.keys(arrays);
  names.forEach((name, k) => {
    for (const j of arrays[name]!) {
      if (owner[j] !== -1) {
        throw new InvalidArgumentError(`${where}: index ${j} is in both ${names[owner[j]!]} and ${name}; roles must be disjoint`);
      }
      owner[j] = k;
    }
  });
}

/**
 * Validates a stored partition (parsed JSON): sizes, index ranges, disjoint roles, disjoint
 * member/non-member sets of each model. Use it when reloading a run's split.
 * @returns the same partition, typed.
 * @throws InvalidArgumentError naming the offending role and index.
 */
export function partitionFromJson(json: unknown): Partition {
  if (typeof json !== 'object' || json === null) throw new InvalidArgumentError(`partitionFromJson: json must be an object, got ${describeValue(json)}`);
  const p = json as Record<string, unknown>;
  const n = p['n'];
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0)
    throw new InvalidArgumentError(`partitionFromJson: n must be a positive integer, got ${describeValue(n)}`);
  if (typeof p['preset'] !== 'string' || typeof p['seed'] !== 'number') {
    throw new InvalidArgumentError(
      `partitionFromJson: preset (string) and seed (number) are required, got ${describeValue({ preset: p['preset'], seed: p['seed'] })}`,
    );
  }
  const rolesIn = (p['roles'] ?? {}) as Record<string, unknown>;
  const roles: Record<string, number[]> = {};
  for (const [name, value] of Object.entries(rolesIn)) roles[name] = checkIndexArray(`roles.${name}`, value, n);
  checkDisjoint('partitionFromJson', roles, n);
  const result: Partition = { preset: p['preset'], n, seed: p['seed'], roles };
  if (p['models'] === undefined) return result;
  if (!Array.isArray(p['models'])) throw new InvalidArgumentError(`partitionFromJson: models must be an array, got ${describeValue(p['models'])}`);
  const models: ModelSplit[] = (p['models'] as unknown[]).map((m, i) => {
    const split = m as Record<string, unknown>;
    const train = checkIndexArray(`models[${i}].train`, split['train'], n);
    const test = checkIndexArray(`models[${i}].test`, split['test'], n);
    checkDisjoint(`partitionFromJson: models[${i}]`, { train, test }, n);
    return { train, test };
  });
  return { ...result, models };
}

/**
 * The membership matrix of a partition's models: `keep[m][i] = 1` when point i is a member
 * (training point) of model m (docs/protocol.md §1.7, PMm `keep`).
 */
export function membershipMatrix(p: Partition): Uint8Array[] {
  return (p.models ?? []).map((m) => {
    const keep = new Uint8Array(p.n);
    for (const j of m.train) keep[j] = 1;
    return keep;
  });
}
