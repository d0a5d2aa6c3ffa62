import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '@mia/core';
import type { DirectoryArtifactStore } from './artifact-store';
import { treeBytes, type Leftover } from './leftovers';

/** One cache entry that {@link planPrune} selected, with why and its size on disk. */
export interface PrunedEntry {
  readonly key: string;
  readonly label: string;
  /** `corrupted`: fails its SHA-256/manifest check (it would be retrained anyway); `model`: a complete trained model or cached output. */
  readonly reason: 'corrupted' | 'model';
  readonly bytes: number;
  readonly createdAt: string;
  /** What is wrong with a corrupted entry. */
  readonly problems: readonly string[];
}

/** What `mia cache prune` removes (or, with `--dry-run`, would remove) and what it keeps. */
export interface PrunePlan {
  readonly entries: readonly PrunedEntry[];
  /** Stale leftovers: unfinished writes and claims of processes that are gone or expired. */
  readonly leftovers: readonly Leftover[];
  /** Leftovers of running processes: never removed. */
  readonly inProgress: readonly Leftover[];
  /** Complete entries that stay. */
  readonly keptEntries: number;
  readonly bytes: number;
}

/** Options of {@link planPrune}. */
export interface PruneOptions {
  /**
   * Also select complete trained entries (models, their signals, trained attack outputs): they cost
   * training time to rebuild. With {@link olderThanMs}, only those created longer ago than that.
   * @default false (only corrupted entries and stale leftovers)
   */
  readonly models?: boolean;
  /** With {@link models}: only entries created more than this many milliseconds ago. @default every entry */
  readonly olderThanMs?: number;
  /** The clock, for tests. @default Date.now() */
  readonly now?: number;
}

/**
 * Decides what to prune from a cache: stale leftovers and corrupted entries always, complete
 * entries only when `models` is set (optionally only the old ones). Reads and hashes every entry;
 * removes nothing (see {@link applyPrune}).
 */
export async function planPrune(store: DirectoryArtifactStore, options: PruneOptions = {}): Promise<PrunePlan> {
  const { olderThanMs, now = Date.now() } = options;
  if (olderThanMs !== undefined && options.models !== true)
    throw new InvalidArgumentError('planPrune: olderThanMs selects trained models, so it needs models: true');
  const entries: PrunedEntry[] = [];
  let keptEntries = 0;
  for (const manifest of await store.list()) {
    const verdict = await store.verify(manifest.key);
    const created = Date.parse(manifest.createdAt);
    const old = olderThanMs === undefined || !Number.isFinite(created) || now - created > olderThanMs;
    const reason = !verdict.ok ? 'corrupted' : options.models === true && old ? 'model' : undefined;
    if (reason === undefined) {
      keptEntries += 1;
      continue;
    }
    entries.push({
      key: manifest.key,
      label: String(manifest.meta.label ?? '?'),
      reason,
      bytes: await treeBytes(join(store.root, manifest.key.slice(0, 2), manifest.key)),
      createdAt: manifest.createdAt,
      problems: verdict.problems,
    });
  }
  const found = await store.leftovers();
  const leftovers = found.filter((l) => l.stale);
  const bytes = [...entries, ...leftovers].reduce((sum, x) => sum + x.bytes, 0);
  return { entries, leftovers, inProgress: found.filter((l) => !l.stale), keptEntries, bytes };
}

/** Removes what a {@link planPrune} selected (each entry atomically), then the empty prefix directories. */
export async function applyPrune(store: DirectoryArtifactStore, plan: PrunePlan): Promise<void> {
  for (const entry of plan.entries) await store.remove(entry.key);
  for (const leftover of plan.leftovers) await rm(leftover.path, { recursive: true, force: true });
  await store.sweep(); // the empty prefix directories (and anything that went stale meanwhile)
}

/**
 * Parses an age such as `30d`, `12h`, `45m` (days, hours, minutes) into milliseconds.
 * @throws InvalidArgumentError naming `option` for anything else.
 */
export function parseAge(text: string, option: string): number {
  const m = /^(\d+(?:\.\d+)?)([dhm])$/.exec(text.trim());
  if (m === null) throw new InvalidArgumentError(`${option} must be an age such as 30d, 12h or 45m, got ${JSON.stringify(text)}`);
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as 'd' | 'h' | 'm'];
  return Number(m[1]) * unit;
}
