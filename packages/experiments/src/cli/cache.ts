import { InvalidArgumentError } from '@mia/core';
import { defaultModelStore } from '../store/model-store';
import { describeLeftover, formatBytes } from '../store/leftovers';
import { applyPrune, parseAge, planPrune } from '../store/prune';

/** Options of `mia cache prune`. */
export interface CachePruneOptions {
  /** List what would be removed, and its size, without removing anything. */
  readonly dryRun?: boolean;
  /** Also remove complete trained models (and their cached signals and attack outputs). */
  readonly models?: boolean;
  /** With `models`: only those created longer ago than this age (`30d`, `12h`, `45m`). */
  readonly olderThan?: string;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/** What `verify` says a stale leftover or a corrupted entry can be removed with; neither command touches a good model. */
const REMOVE_ADVICE = '`mia cache verify --remove` or `mia cache prune` removes it; neither removes a good model';

/** `mia cache ls`: every entry, then what killed processes left. */
export async function cacheLsCommand(): Promise<void> {
  const store = defaultModelStore();
  const entries = await store.list();
  for (const e of entries) say(`${e.key.slice(0, 16)}  ${String(e.meta.label ?? '?').padEnd(28)} ${String(e.meta.config ?? '').padEnd(24)} ${e.createdAt}`);
  say(`${entries.length} entries in ${store.root}`);
  for (const l of await store.leftovers()) say(`leftover ${describeLeftover(l)}`);
}

/** `mia cache verify [--remove]`: re-checks every entry; `--remove` deletes corrupted entries and stale leftovers only. */
export async function cacheVerifyCommand(opts: { remove?: boolean } = {}): Promise<void> {
  const store = defaultModelStore();
  const entries = await store.list();
  const remove = opts.remove === true;
  let bad = 0;
  for (const e of entries) {
    const r = await store.verify(e.key);
    if (r.ok) continue;
    bad += 1;
    say(
      `CORRUPTED ${e.key.slice(0, 16)} ${String(e.meta.label ?? '')}: ${r.problems.join('; ')}${remove ? ' (removed)' : ` (retrained on the next run; ${REMOVE_ADVICE})`}`,
    );
    if (remove) await store.remove(e.key);
  }
  const leftovers = await store.leftovers();
  const stale = leftovers.filter((l) => l.stale);
  for (const l of leftovers) say(`LEFTOVER ${describeLeftover(l)}${l.stale ? (remove ? ' (removed)' : ` (${REMOVE_ADVICE})`) : ''}`);
  if (remove) await store.sweep();
  say(`${entries.length} entries checked, ${bad} corrupted; ${leftovers.length} leftovers, ${stale.length} stale`);
  if (bad > 0 && !remove) process.exitCode = 1;
}

/**
 * `mia cache prune [--dry-run] [--models [--older-than <age>]]`: removes stale leftovers and corrupted
 * entries; trained models only with `--models`. `--dry-run` lists what would go and its size.
 */
export async function cachePruneCommand(opts: CachePruneOptions = {}): Promise<void> {
  const olderThanMs = opts.olderThan === undefined ? undefined : parseAge(opts.olderThan, 'cache prune: --older-than');
  if (olderThanMs !== undefined && opts.models !== true)
    throw new InvalidArgumentError(`cache prune: --older-than ${opts.olderThan} selects trained models to remove, so it needs --models`);
  const store = defaultModelStore();
  const plan = await planPrune(store, { models: opts.models, olderThanMs });
  const verb = opts.dryRun === true ? 'would remove' : 'removed';
  for (const e of plan.entries)
    say(
      `${verb} ${e.key.slice(0, 16)} ${e.label}: ${e.reason === 'corrupted' ? `corrupted (${e.problems.join('; ')})` : `trained model from ${e.createdAt}`}, ${formatBytes(e.bytes)}`,
    );
  for (const l of plan.leftovers) say(`${verb} ${describeLeftover(l)}`);
  for (const l of plan.inProgress) say(`kept ${describeLeftover(l)}`);
  if (opts.dryRun !== true) await applyPrune(store, plan);
  const models = plan.entries.filter((e) => e.reason === 'model').length;
  const corrupted = plan.entries.length - models;
  say(
    `${verb} ${corrupted} corrupted entries, ${models} trained models and ${plan.leftovers.length} stale leftovers (${formatBytes(plan.bytes)}) from ${store.root}; ` +
      `kept ${plan.keptEntries} trained models${opts.models === true ? '' : ' (`--models` removes them)'}`,
  );
}
