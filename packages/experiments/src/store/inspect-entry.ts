import { readFile, stat } from 'node:fs/promises';
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

/** A complete, verified entry: its manifest and its files. */
export interface ArtifactEntry {
  readonly manifest: ArtifactManifest;
  readonly files: Map<string, Uint8Array>;
}

/** The state of one entry directory: absent, complete and verified, or corrupted with what is wrong. */
export type EntryInspection = { state: 'missing' } | { state: 'corrupted'; problems: string[] } | { state: 'ok'; entry: ArtifactEntry };

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Reads an entry directory and re-checks the size and SHA-256 of every file its manifest lists. */
export async function inspectEntry(dir: string): Promise<EntryInspection> {
  let text: string;
  try {
    text = await readFile(join(dir, 'manifest.json'), 'utf8');
  } catch (error) {
    // ENOTDIR: a part of the path is a file (a cache directory under a file): no entry, nothing corrupted.
    if (errorCode(error) === 'ENOTDIR') return { state: 'missing' };
    if (errorCode(error) !== 'ENOENT') return { state: 'corrupted', problems: [`manifest.json unreadable (${errorCode(error) ?? String(error)})`] };
    const exists = await stat(dir).then(
      () => true,
      () => false,
    );
    return exists ? { state: 'corrupted', problems: ['manifest.json missing'] } : { state: 'missing' };
  }
  let manifest: ArtifactManifest;
  try {
    manifest = JSON.parse(text) as ArtifactManifest;
  } catch {
    return { state: 'corrupted', problems: ['manifest.json is not valid JSON'] };
  }
  if (typeof manifest !== 'object' || manifest === null || typeof manifest.files !== 'object' || manifest.files === null)
    return { state: 'corrupted', problems: ['manifest.json lists no files'] };
  const problems: string[] = [];
  const files = new Map<string, Uint8Array>();
  for (const [name, spec] of Object.entries(manifest.files)) {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(join(dir, name));
    } catch {
      problems.push(`${name}: missing`);
      continue;
    }
    if (bytes.byteLength !== spec.bytes) problems.push(`${name}: ${bytes.byteLength} bytes, manifest says ${spec.bytes}`);
    else if (sha256(bytes) !== spec.sha256) problems.push(`${name}: SHA-256 mismatch`);
    else files.set(name, bytes);
  }
  return problems.length > 0 ? { state: 'corrupted', problems } : { state: 'ok', entry: { manifest, files } };
}
