import { deserializeClassifier, type ModelClassifier } from '@mia/models';
import type { DefenseTrainContext } from '../defenses/definition';
import { getDefense } from '../defenses/registry';
import { copyWeights } from '../defenses/train-helpers';
import type { UnitScope } from './unit-scope';
import { underClaim } from '../store/under-claim';

/**
 * Phase 1 of a two-phase defense (PAST): trains `ctx.model` in place as the run's unit of the `base`
 * defense with the same seeds, loading that unit from the cache when it is there, and caching it
 * otherwise, so the run's own unit of that defense is the same model (and is not trained twice).
 */
export async function trainBaseUnit(
  scope: UnitScope,
  ctx: DefenseTrainContext<unknown>,
  base: { readonly name: string; readonly params: Readonly<Record<string, unknown>> },
): Promise<void> {
  const { role } = scope.unit;
  const key = scope.unit.keyWith(base);
  const model = ctx.model as ModelClassifier;
  const load = async () => {
    const bytes = (await scope.store.read(key))?.files.get('model.bin');
    if (bytes === undefined) return undefined;
    const loaded = deserializeClassifier(bytes);
    try {
      copyWeights(loaded, model);
    } finally {
      loaded.dispose();
    }
    scope.onLog?.(`cache hit  ${base.name}/${role} as the base of ${ctx.label} (${key.slice(0, 12)})`);
    return true;
  };
  if ((await load()) !== undefined) return;
  // Claimed like any unit: another process training this base unit is waited for, not duplicated.
  await underClaim(scope.store, key, `${base.name}/${role}`, { onLog: scope.onLog, signal: ctx.signal }, load, async () => {
    const started = Date.now();
    const definition = getDefense(base.name);
    const options = definition.schema.parse(base.params, `defense ${base.name}`);
    // No monitors: the unit's validation curve covers its own training, not its base's.
    const other = await definition.train({ ...ctx, options, label: `${base.name}/${role} (base of ${ctx.label})`, monitors: undefined });
    if (other !== undefined) {
      try {
        copyWeights(other, model);
      } finally {
        other.dispose();
      }
    }
    const seconds = (Date.now() - started) / 1000;
    await scope.write(key, model, scope.logitsOf(model), `${base.name}/${role}`, seconds);
    scope.onLog?.(`trained    ${base.name}/${role} as the base of ${ctx.label} in ${seconds.toFixed(1)} s (${key.slice(0, 12)})`);
    return true;
  });
}
