import { lstat, readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { HOST, HOST_TAG, isOwnerGone, type ProcessOwner } from './process-owner';
import { CLAIMS_DIR, TEMPORARY_MAX_AGE_MS, temporaryOwner } from './names';
import { isClaimStale, type ClaimHolder } from './unit-claim';

/** Something an interrupted process left in a store: an unfinished write or an unreleased claim. */
export interface Leftover {
  readonly kind: 'temporary' | 'claim';
  readonly path: string;
  readonly bytes: number;
  readonly modified: Date;
  /** The process that made it, when its name or content says. */
  readonly owner?: ProcessOwner;
  /** No running process will finish or release it: its owner on this host is gone, or it is too old / expired. */
  readonly stale: boolean;
}

/** `2.5 MB`, `12.0 kB`: a size for messages. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} kB`;
}

/** Bytes of a file, or of every file under a directory (0 when it is gone). */
export async function treeBytes(path: string): Promise<number> {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined) return 0;
  if (!info.isDirectory()) return info.size;
  const names = await readdir(path).catch(() => [] as string[]);
  let total = 0;
  for (const name of names) total += await treeBytes(join(path, name));
  return total;
}

/** Lists the temporary directories (`.tmp-*`) and claim files under a store's root, each with whether it is stale. */
export async function findLeftovers(root: string, now = Date.now()): Promise<Leftover[]> {
  const out: Leftover[] = [];
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith('.tmp-')).sort()) {
    const path = join(root, name);
    const info = await lstat(path).catch(() => undefined);
    if (info === undefined) continue;
    const owner = temporaryOwner(name);
    const stale = now - info.mtimeMs > TEMPORARY_MAX_AGE_MS || (owner !== undefined && isOwnerGone(owner));
    out.push({ kind: 'temporary', path, bytes: await treeBytes(path), modified: info.mtime, owner, stale });
  }
  const claims = await readdir(join(root, CLAIMS_DIR)).catch(() => [] as string[]);
  for (const name of claims.sort()) {
    const path = join(root, CLAIMS_DIR, name);
    const info = await lstat(path).catch(() => undefined);
    if (info === undefined) continue;
    let holder: ClaimHolder | undefined;
    try {
      holder = JSON.parse(await readFile(path, 'utf8')) as ClaimHolder;
    } catch {
      holder = undefined;
    }
    // Files other than `<key>.json` are a claim's scratch files (`.new`, `.stale`), which live for
    // milliseconds: stale after a minute.
    const scratch = !name.endsWith('.json');
    const stale = scratch ? now - info.mtimeMs > 60_000 : isClaimStale(holder, info.mtimeMs, undefined, now);
    out.push({
      kind: 'claim',
      path,
      bytes: info.size,
      modified: info.mtime,
      owner: holder?.pid === undefined ? undefined : { pid: holder.pid, host: holder.host },
      stale,
    });
  }
  return out;
}

/** One line about a leftover for `mia cache verify|ls|prune`: what it is, its size, whose it is and whether it is stale. */
export function describeLeftover(leftover: Leftover): string {
  const what = leftover.kind === 'temporary' ? 'unfinished write' : 'claim';
  const size = formatBytes(leftover.bytes);
  const owner =
    leftover.owner === undefined
      ? 'owner unknown'
      : `pid ${leftover.owner.pid}${leftover.owner.host === HOST || leftover.owner.host === HOST_TAG ? ' on this host' : ` on ${leftover.owner.host}`}`;
  return `${basename(leftover.path)}: ${what}, ${size}, ${owner}, ${leftover.stale ? 'stale (its process is gone or it expired)' : 'in progress'}`;
}
