import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AbortError, InvalidArgumentError } from '@mia/core';
import { trackClaim, untrackClaim } from './exit-cleanup';
import { HOST, isOwnerGone } from './process-owner';

/** What a claim file holds: who trains the unit and until when the claim is valid without renewal. */
export interface ClaimHolder {
  readonly pid: number;
  readonly host: string;
  /** Random id of this claim (tells a renewed claim from a newer one of the same process). */
  readonly nonce: string;
  readonly acquiredAt: string;
  readonly expiresAt: string;
}

/** Options of {@link acquireClaim}. */
export interface ClaimOptions {
  /** How long a claim stays valid without renewal; its holder renews it every `ttlMs / 4`. @default 300000 */
  readonly ttlMs?: number;
  /** How often a waiting process looks again (± 25 % jitter). @default 500 */
  readonly pollMs?: number;
  /** Stops waiting (rejects with `AbortError`). */
  readonly signal?: AbortSignal;
  /** Called once, when the claim is found held by another live process. */
  readonly onWait?: (holder: ClaimHolder) => void;
}

/** A held claim on one unit: only its holder computes the unit; others wait, then read the result. */
export interface UnitClaim {
  readonly key: string;
  readonly holder: ClaimHolder;
  /** Gives the claim up (idempotent); a waiting process then takes it and finds the entry written. */
  release(): Promise<void>;
}

const DEFAULT_TTL_MS = 300_000;
const DEFAULT_POLL_MS = 500;
const MAX_IMMEDIATE_RETRIES = 100;
const hex = () => randomBytes(6).toString('hex');

async function readHolder(path: string): Promise<{ holder?: ClaimHolder; modifiedMs: number } | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    try {
      return { holder: JSON.parse(text) as ClaimHolder, modifiedMs: info.mtimeMs };
    } catch {
      return { modifiedMs: info.mtimeMs }; // unreadable: stale once older than a claim's lifetime
    }
  } catch {
    return undefined; // released meanwhile
  }
}

/** A claim nobody will renew: expired, or its holder is a process of this host that is gone. */
export function isClaimStale(holder: ClaimHolder | undefined, modifiedMs: number, ttlMs = DEFAULT_TTL_MS, now = Date.now()): boolean {
  if (holder === undefined || typeof holder.pid !== 'number' || typeof holder.expiresAt !== 'string') return now - modifiedMs > ttlMs;
  return !(Date.parse(holder.expiresAt) > now) || isOwnerGone(holder);
}

/** Creates `path` holding `text` only if it does not exist, all at once (a hard link of a finished file). */
async function createExclusive(path: string, text: string): Promise<boolean> {
  const tmp = `${path}.${hex()}.new`;
  await writeFile(tmp, text);
  try {
    await link(tmp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    // A file system without hard links: exclusive create (a reader may see it empty for a moment).
    return writeFile(path, text, { flag: 'wx' }).then(
      () => true,
      (e: NodeJS.ErrnoException) => {
        if (e.code === 'EEXIST') return false;
        throw e;
      },
    );
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/** Removes a stale claim; if what was moved aside is not the stale claim seen (a newer one), puts it back. */
async function takeOver(path: string, seen: ClaimHolder | undefined): Promise<void> {
  const aside = `${path}.${hex()}.stale`;
  try {
    await rename(path, aside);
  } catch {
    return; // someone else moved or released it
  }
  const moved = await readHolder(aside);
  if (moved?.holder?.nonce !== seen?.nonce) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError('acquireClaim: aborted while waiting for another process'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Takes the claim on `key` in `dir` (one `<key>.json` file with owner pid, host and expiry), waiting
 * while another live process holds it. A stale claim (its holder's process on this host is gone, or
 * it expired unrenewed, e.g. a crashed host) is taken over. The holder renews the claim while it lives,
 * and a process exit removes its claims. Two processes can only both hold one claim if one of them
 * stalls for longer than `ttlMs`; the store's publish-if-absent keeps the result correct even then.
 * @throws InvalidArgumentError on a bad option, or when the claim file can be neither read nor (when
 *   stale) moved aside in 100 attempts in a row; AbortError when `signal` aborts the wait.
 */
export async function acquireClaim(dir: string, key: string, options: ClaimOptions = {}): Promise<UnitClaim> {
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  if (!(ttlMs > 0)) throw new InvalidArgumentError(`acquireClaim: ttlMs must be a positive number, got ${ttlMs}`);
  if (!(pollMs > 0)) throw new InvalidArgumentError(`acquireClaim: pollMs must be a positive number, got ${pollMs}`);
  const path = join(dir, `${key}.json`);
  await mkdir(dir, { recursive: true });
  let waited = false;
  // Retries without a pause (the claim vanished, or a stale one was moved aside) end in a claim or a
  // wait within a few rounds; more in a row mean a claim file this process can neither read nor move.
  let retries = 0;
  for (; ; retries++) {
    if (retries === MAX_IMMEDIATE_RETRIES)
      throw new InvalidArgumentError(
        `acquireClaim: ${path} must be a claim file this process can read and, when stale, move aside; ${MAX_IMMEDIATE_RETRIES} attempts in a row found it ${(await readHolder(path)) === undefined ? 'unreadable (not a file, or no read permission)' : 'stale but not movable (no write permission on its directory?)'}`,
      );
    if (options.signal?.aborted === true) throw new AbortError('acquireClaim: aborted while waiting for another process');
    const now = Date.now();
    const holder: ClaimHolder = {
      pid: process.pid,
      host: HOST,
      nonce: hex(),
      acquiredAt: new Date(now).toISOString(),
      expiresAt: new Date(now + ttlMs).toISOString(),
    };
    if (await createExclusive(path, JSON.stringify(holder))) return heldClaim(path, key, holder, ttlMs);
    const current = await readHolder(path);
    if (current === undefined) continue;
    if (isClaimStale(current.holder, current.modifiedMs, ttlMs)) {
      await takeOver(path, current.holder);
      continue;
    }
    if (!waited && current.holder !== undefined) options.onWait?.(current.holder);
    waited = true;
    retries = -1; // a live holder is progress: the count restarts (at 0 after the loop's increment)
    await sleep(pollMs * (0.75 + 0.5 * Math.random()), options.signal);
  }
}

function heldClaim(path: string, key: string, holder: ClaimHolder, ttlMs: number): UnitClaim {
  trackClaim(path, holder.nonce);
  let released = false;
  const renew = async () => {
    const current = await readHolder(path);
    if (released || current?.holder?.nonce !== holder.nonce) return;
    const tmp = `${path}.${hex()}.new`;
    await writeFile(tmp, JSON.stringify({ ...holder, expiresAt: new Date(Date.now() + ttlMs).toISOString() }));
    await rename(tmp, path).catch(() => unlink(tmp));
  };
  // Renewals run one at a time, and release waits for the last one, so none recreates a released claim.
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(
    () => {
      renewing = renewing.then(renew).catch(() => undefined);
    },
    Math.max(10, ttlMs / 4),
  );
  timer.unref();
  return {
    key,
    holder,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await renewing;
      untrackClaim(path);
      const current = await readHolder(path);
      if (current?.holder?.nonce === holder.nonce) await unlink(path).catch(() => undefined);
    },
  };
}
