import { createHash } from 'node:crypto';
import { hostname } from 'node:os';

/** This machine's host name, recorded in claim files so that other hosts sharing a store can tell whose they are. */
export const HOST = hostname();

/** 8 hex digits of the host name's SHA-256: how temporary directory names say which host wrote them. */
export const HOST_TAG = createHash('sha256').update(HOST).digest('hex').slice(0, 8);

/**
 * Whether a process of this host is running: signal 0 checks existence without touching it
 * (`EPERM` = it exists but belongs to another user).
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Who owns a claim or a temporary directory; `host` is a name or a {@link HOST_TAG}. */
export interface ProcessOwner {
  readonly pid: number;
  readonly host: string;
}

/**
 * Whether an owner is certainly gone: a process of this host (by name or tag) that no longer runs.
 * An owner on another host is never known to be gone; expiry decides for those.
 */
export function isOwnerGone(owner: ProcessOwner): boolean {
  const here = owner.host === HOST || owner.host === HOST_TAG;
  return here && owner.pid !== process.pid && !isProcessAlive(owner.pid);
}
