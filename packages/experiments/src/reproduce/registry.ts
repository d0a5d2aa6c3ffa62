import { createNamedRegistry } from '../schema/named-registry';
import type { Reproduction, ReproductionScale } from './types';

const registry = createNamedRegistry<Reproduction>({
  what: 'reproductions[].name',
  registeredBy: 'registerReproductions',
  duplicates: 'refuse',
  validate: (r) => (/^[a-z0-9]+-[a-z0-9.-]+$/.test(r.name) ? undefined : `name must look like "<paper>-<table>" (lower case), got ${JSON.stringify(r.name)}`),
});

/**
 * Makes reproductions available to `mia reproduce <name>` (the example packages register theirs).
 * @throws InvalidArgumentError for a name that is not `<paper>-<table>` or is registered twice by different objects.
 */
export function registerReproductions(reproductions: readonly Reproduction[]): void {
  for (const r of reproductions) registry.register(r, undefined);
}

/** The registered reproductions, by name. */
export function reproductionNames(): string[] {
  return registry.names().sort();
}

/** The registered reproduction of a name, or undefined. */
export function getReproduction(name: string): Reproduction | undefined {
  return registry.find(name);
}

/** Picks the value of a scale: `byScale(scale, { smoke: 200, cpu: 5000, paper: 25000 })`. */
export function byScale<T>(scale: ReproductionScale, values: { readonly smoke: T; readonly cpu: T; readonly paper: T }): T {
  return values[scale];
}
