import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256 } from './canonical-hash';

/** What a cache entry's manifest records. */
export interface ArtifactManifest {
  readonly key: string;
  /** Free-form description: kind (model, signals), config summary, versions. */
  readonly meta: Record<string, unknown>;
  readonly files: Record<string, { readonly sha256: string; readonly bytes: number }>;
  readonly createdAt: string;
}

/** Result of {@link ArtifactStore.verify}. */
export interface VerifyResult {
  readonly key: string;
  readonly ok: boolean;
  readonly problems: readonly string[];
}

/**
 * Where trained models and signals live, keyed by content hash. Kept small so that an object
 * store can implement it next to {@link DirectoryArtifactStore}.
 */
export interface ArtifactStore {
  /** The files of a complete, verified entry, or `undefined` (missing or corrupted: then retrain). */
  read(key: string): Promise<{ manifest: ArtifactManifest; files: Map<string, Uint8Array> } | undefined>;
  /** Writes an entry atomically: readers see all of it or none of it. */
  write(key: string, files: Record<string, Uint8Array>, meta: Record<string, unknown>): Promise<void>;
  list(): Promise<ArtifactManifest[]>;
  verify(key: string): Promise<VerifyResult>;
  remove(key: string): Promise<void>;
}

/**
 * A content-addressed directory: `<root>/<key[0..2]>/<key>/{manifest.json, files…}`. An entry is
 * written into a temporary directory and renamed into place, so a crash never leaves half an entry;
 * every read re-checks the SHA-256 of each file, so a corrupted entry is never used.
 */
export class DirectoryArtifactStore implements ArtifactStore {
  constructor(readonly root: string) {}

  private dir(key: string): string {
    if (!/^[a-f0-9]{16,}$/.test(key)) throw new Error(`DirectoryArtifactStore: key must be a hex digest, got ${JSON.stringify(key)}`);
    return join(this.root, key.slice(0, 2), key);
  }

  async read(key: string) {
    const dir = this.dir(key);
    let manifest: ArtifactManifest;
    try {
      manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as ArtifactManifest;
    } catch {
      return undefined;
    }
    const files = new Map<string, Uint8Array>();
    for (const [name, spec] of Object.entries(manifest.files ?? {})) {
      let bytes: Uint8Array;
      try {
        bytes = await readFile(join(dir, name));
      } catch {
        return undefined;
      }
      if (bytes.byteLength !== spec.bytes || sha256(bytes) !== spec.sha256) return undefined;
      files.set(name, bytes);
    }
    return { manifest, files };
  }

  async write(key: string, files: Record<string, Uint8Array>, meta: Record<string, unknown>): Promise<void> {
    const final = this.dir(key);
    const tmp = join(this.root, `.tmp-${key.slice(0, 12)}-${process.pid}-${randomBytes(4).toString('hex')}`);
    await mkdir(tmp, { recursive: true });
    try {
      const specs: ArtifactManifest['files'] = {};
      for (const [name, bytes] of Object.entries(files)) {
        if (!/^[\w.-]+$/.test(name) || name === 'manifest.json') throw new Error(`DirectoryArtifactStore.write: bad file name ${JSON.stringify(name)}`);
        await writeFile(join(tmp, name), bytes);
        (specs as Record<string, { sha256: string; bytes: number }>)[name] = { sha256: sha256(bytes), bytes: bytes.byteLength };
      }
      const manifest: ArtifactManifest = { key, meta, files: specs, createdAt: new Date().toISOString() };
      await writeFile(join(tmp, 'manifest.json'), JSON.stringify(manifest, null, 2));
      await mkdir(join(this.root, key.slice(0, 2)), { recursive: true });
      await rm(final, { recursive: true, force: true });
      await rename(tmp, final);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }

  async list(): Promise<ArtifactManifest[]> {
    const out: ArtifactManifest[] = [];
    let prefixes: string[];
    try {
      prefixes = (await readdir(this.root)).filter((d) => /^[a-f0-9]{2}$/.test(d));
    } catch {
      return out;
    }
    for (const prefix of prefixes) {
      for (const key of await readdir(join(this.root, prefix))) {
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
    const dir = this.dir(key);
    const problems: string[] = [];
    let manifest: ArtifactManifest | undefined;
    try {
      manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as ArtifactManifest;
    } catch (error) {
      problems.push(`manifest.json unreadable (${(error as Error).message.split('\n')[0]})`);
    }
    for (const [name, spec] of Object.entries(manifest?.files ?? {})) {
      try {
        const info = await stat(join(dir, name));
        const bytes = await readFile(join(dir, name));
        if (info.size !== spec.bytes) problems.push(`${name}: ${info.size} bytes, manifest says ${spec.bytes}`);
        else if (sha256(bytes) !== spec.sha256) problems.push(`${name}: SHA-256 mismatch`);
      } catch {
        problems.push(`${name}: missing`);
      }
    }
    return { key, ok: problems.length === 0, problems };
  }

  async remove(key: string): Promise<void> {
    await rm(this.dir(key), { recursive: true, force: true });
  }
}
