import { readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { HOST, HOST_TAG } from './process-owner';
import { CLAIMS_DIR, temporaryOwner } from './names';

// What this process must not leave behind when it exits early (Ctrl-C, an error): its claims and
// its unfinished writes. Removed synchronously in the 'exit' handler; a SIGKILL skips this, and
// then the leftovers are stale (their pid is gone) and `mia cache prune` removes them.
const claims = new Map<string, string>();
const temporaries = new Set<string>();
const roots = new Set<string>();
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', removeLeftoversSync);
}

/** Removes this process's claim at exit unless it was released (`nonce`: only if it is still ours). */
export function trackClaim(path: string, nonce: string): void {
  install();
  claims.set(path, nonce);
}

/** Forgets a released claim. */
export function untrackClaim(path: string): void {
  claims.delete(path);
}

/** Removes a temporary directory at exit unless it was published or removed before. */
export function trackTemporary(path: string): void {
  install();
  temporaries.add(path);
}

/** Forgets a temporary directory that was renamed into place or removed. */
export function untrackTemporary(path: string): void {
  temporaries.delete(path);
}

/**
 * Main thread only: at exit, also removes what this process's worker threads left under `root`
 * (temporary directories and claims named with this pid), since those threads stop without cleanup.
 */
export function trackStoreRoot(root: string): void {
  if (!isMainThread) return;
  install();
  roots.add(root);
}

function removeLeftoversSync(): void {
  for (const [path, nonce] of claims) {
    try {
      if ((JSON.parse(readFileSync(path, 'utf8')) as { nonce?: string }).nonce === nonce) unlinkSync(path);
    } catch {
      // already gone
    }
  }
  for (const path of temporaries) rmSync(path, { recursive: true, force: true });
  for (const root of roots) {
    let names: string[] = [];
    try {
      names = readdirSync(root);
    } catch {
      continue;
    }
    for (const name of names) {
      const owner = temporaryOwner(name);
      if (owner?.host === HOST_TAG && owner.pid === process.pid) rmSync(join(root, name), { recursive: true, force: true });
    }
    let claimNames: string[] = [];
    try {
      claimNames = readdirSync(join(root, CLAIMS_DIR)).filter((n) => n.endsWith('.json'));
    } catch {
      continue;
    }
    for (const name of claimNames) {
      try {
        const holder = JSON.parse(readFileSync(join(root, CLAIMS_DIR, name), 'utf8')) as { pid?: number; host?: string };
        if (holder.pid === process.pid && holder.host === HOST) unlinkSync(join(root, CLAIMS_DIR, name));
      } catch {
        // released meanwhile, or not a claim
      }
    }
  }
}
