import { mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sha256 } from './canonical-hash';
import { inspectEntry, type ArtifactEntry, type ArtifactManifest, type EntryInspection } from './inspect-entry';
import { trackStoreRoot, trackTemporary, untrackTemporary } from './exit-cleanup';
import { findLeftovers, type Leftover } from './leftovers';
import { CLAIMS_DIR, temporaryName } from './names';
import { ensureWritableDirectory } from './writable';
import { acquireClaim, type ClaimOptions, type UnitClaim } from './unit-claim';

export type { ArtifactEntry, ArtifactManifest } from './inspect-entry';

/** Result of {@link ArtifactStore.verify}. */
export interface VerifyResult {
  readonly key: string;
  readonly ok: boolean;
  readonly problems: readonly string[];
}

/** Options of {@link ArtifactStore.read}. */
export interface ReadOptions {
  /** Called when the entry exists but is corrupted (then `read` returns `undefined`), with what is wrong. */
  readonly onCorrupted?: (problems: readonly string[]) => void;
}

/** What {@link ArtifactStore.write} did: published this entry, or found a complete one already there and kept it. */
export type WriteOutcome = 'written' | 'existing';

/**
 * Where trained models and signals live, keyed by content hash. Kept small so that an object
 * store can implement it next to {@link DirectoryArtifactStore}.
 */
export interface ArtifactStore {
  /** The files of a complete, verified entry, or `undefined` (missing or corrupted: then retrain). */
  read(key: string, options?: ReadOptions): Promise<ArtifactEntry | undefined>;
  /**
   * Publishes an entry atomically (readers see all of it or none of it) unless a complete one with
   * this key is already there: then this copy is discarded and the result is `'existing'` (read the
   * entry for the winner's files). A corrupted entry is replaced.
   */
  write(key: string, files: Record<string, Uint8Array>, meta: Record<string, unknown>): Promise<WriteOutcome>;
  list(): Promise<ArtifactManifest[]>;
  verify(key: string): Promise<VerifyResult>;
  remove(key: string): Promise<void>;
  /** Optional: fails early, with a message saying where the store is and how to move it, when entries cannot be written. */
  ensureWritable?(): Promise<void>;
  /**
   * Optional: claims the unit `key` for this process, waiting while another process holds it, so two
   * processes sharing the store do not compute the same entry twice. Release it after writing.
   */
  claim?(key: string, options?: ClaimOptions): Promise<UnitClaim>;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * A content-addressed directory: `<root>/<key[0..2]>/<key>/{manifest.json, files…}`. An entry is
 * written into a temporary directory `.tmp-*` and renamed into place only if none is there, so a
 * crash never leaves half an entry and two writers of one key never fail (the second keeps the
 * first's); every read re-checks the SHA-256 of each file, so a corrupted entry is never used.
 * Per-unit claims live in `<root>/.claims/`. A killed process may leave a `.tmp-*` directory or a
 * claim behind: {@link leftovers} lists them, {@link sweep} removes the stale ones.
 */
export class DirectoryArtifactStore implements ArtifactStore {
  /**
   * @param root - The store's directory (created when the first entry is written).
   * @param options.notWritableHint - Added to the error of {@link ensureWritable}: how to use another directory.
   */
  constructor(
    readonly root: string,
    private readonly options: { readonly notWritableHint?: string } = {},
  ) {
    trackStoreRoot(root);
  }

  /**
   * Creates the root and checks that files can be created in it. A read-only store still serves
   * reads; {@link claim} and {@link write} fail with this check's message, so a run on a read-only
   * cache stops before it trains a unit it could not keep.
   * @throws InvalidArgumentError naming the directory as not writable, with the reason.
   */
  ensureWritable(): Promise<void> {
    return ensureWritableDirectory(this.root, 'the cache directory', this.options.notWritableHint);
  }

  /** Rethrows a failed write as {@link ensureWritable}'s error when the root is not writable (else as it is). */
  private async explain(error: unknown): Promise<never> {
    if (['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOENT', 'ENOSPC', 'EDQUOT'].includes(errorCode(error) ?? '')) await this.ensureWritable();
    throw error;
  }

  private dir(key: string): string {
    if (!/^[a-f0-9]{16,}$/.test(key)) throw new Error(`DirectoryArtifactStore: key must be a hex digest, got ${JSON.stringify(key)}`);
    return join(this.root, key.slice(0, 2), key);
  }

  private inspect(key: string): Promise<EntryInspection> {
    return inspectEntry(this.dir(key));
  }

  async read(key: string, options: ReadOptions = {}): Promise<ArtifactEntry | undefined> {
    const found = await this.inspect(key);
    if (found.state === 'corrupted') options.onCorrupted?.(found.problems);
    return found.state === 'ok' ? found.entry : undefined;
  }

  async write(key: string, files: Record<string, Uint8Array>, meta: Record<string, unknown>): Promise<WriteOutcome> {
    const final = this.dir(key);
    for (const name of Object.keys(files)) {
      if (!/^[\w.-]+$/.test(name) || name === 'manifest.json') throw new Error(`DirectoryArtifactStore.write: bad file name ${JSON.stringify(name)}`);
    }
    const tmp = join(this.root, temporaryName(key));
    await mkdir(tmp, { recursive: true }).catch((error: unknown) => this.explain(error));
    trackTemporary(tmp);
    try {
      const specs: Record<string, { sha256: string; bytes: number }> = {};
      for (const [name, bytes] of Object.entries(files)) {
        await writeFile(join(tmp, name), bytes);
        specs[name] = { sha256: sha256(bytes), bytes: bytes.byteLength };
      }
      const manifest: ArtifactManifest = { key, meta, files: specs, createdAt: new Date().toISOString() };
      await writeFile(join(tmp, 'manifest.json'), JSON.stringify(manifest, null, 2));
      // Publish if absent: renaming onto a non-empty directory fails, so a concurrent writer's entry is
      // never replaced; only a corrupted one is moved aside first. A few rounds cover concurrent removals.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await mkdir(dirname(final), { recursive: true });
          await rename(tmp, final);
          return 'written';
        } catch (error) {
          const exists = await stat(final).then(
            () => true,
            () => false,
          );
          if (attempt >= 8 || (!exists && errorCode(error) !== 'ENOENT')) throw error;
        }
        const existing = await this.inspect(key);
        if (existing.state === 'ok') return 'existing';
        if (existing.state === 'corrupted') await this.remove(key);
      }
    } finally {
      untrackTemporary(tmp);
      await rm(tmp, { recursive: true, force: true });
    }
  }

  async list(): Promise<ArtifactManifest[]> {
    const out: ArtifactManifest[] = [];
    const prefixes = (await readdir(this.root).catch(() => [] as string[])).filter((d) => /^[a-f0-9]{2}$/.test(d));
    for (const prefix of prefixes) {
      const keys = await readdir(join(this.root, prefix)).catch(() => [] as string[]);
      for (const key of keys.filter((k) => /^[a-f0-9]{16,}$/.test(k))) {
        try {
          out.push(JSON.parse(await readFile(join(this.root, prefix, key, 'manifest.json'), 'utf8')) as ArtifactManifest);
        } catch {
          out.push({ key, meta: { corrupted: true }, files: {}, createdAt: '' });
        }
      }
    }
    return out;
  }

  async verify(key: string): Promise<VerifyResult> {
    const found = await this.inspect(key);
    const problems = found.state === 'ok' ? [] : found.state === 'missing' ? ['missing'] : found.problems;
    return { key, ok: problems.length === 0, problems };
  }

  /** Removes an entry: moved aside in one rename (readers never see half of it), then deleted. */
  async remove(key: string): Promise<void> {
    const aside = join(this.root, temporaryName(key));
    try {
      await rename(this.dir(key), aside);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return;
      throw error;
    }
    trackTemporary(aside);
    try {
      await rm(aside, { recursive: true, force: true });
    } finally {
      untrackTemporary(aside);
    }
  }

  /** Claims a unit (`<root>/.claims/<key>.json`, with owner pid, host and expiry); see {@link acquireClaim}. */
  async claim(key: string, options: ClaimOptions = {}): Promise<UnitClaim> {
    this.dir(key);
    return acquireClaim(join(this.root, CLAIMS_DIR), key, options).catch((error: unknown) => this.explain(error));
  }

  /** Unfinished writes (`.tmp-*`) and claims under the root, each marked stale or in progress. */
  async leftovers(): Promise<Leftover[]> {
    return findLeftovers(this.root);
  }

  /**
   * Removes the stale leftovers (writes and claims of processes that are gone, or too old) and the
   * empty prefix directories. Leftovers of running processes are kept.
   * @returns what was removed and what was kept.
   */
  async sweep(): Promise<{ removed: Leftover[]; kept: Leftover[] }> {
    const found = await this.leftovers();
    for (const l of found.filter((x) => x.stale)) await rm(l.path, { recursive: true, force: true });
    const prefixes = (await readdir(this.root).catch(() => [] as string[])).filter((d) => /^[a-f0-9]{2}$/.test(d));
    for (const prefix of prefixes) await rmdir(join(this.root, prefix)).catch(() => undefined); // only empty ones go
    return { removed: found.filter((x) => x.stale), kept: found.filter((x) => !x.stale) };
  }
}
