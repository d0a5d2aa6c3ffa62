import { createHash } from 'node:crypto';

/** JSON with object keys sorted recursively, so equal configs give equal strings. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (ArrayBuffer.isView(value)) return canonicalJson(Array.from(value as unknown as ArrayLike<number>));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 (hex) of the canonical JSON of `value`: the content address of a cache entry. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** SHA-256 (hex) of bytes. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * SHA-256 (hex) of a value whose typed arrays are hashed by their bytes (with their type name and
 * byte length), not as JSON numbers: fast for large score and signal arrays. Arrays are framed with
 * their length, object keys are sorted and `undefined` values skipped, anything else is its JSON.
 * Two values with the same digest hold the same numbers in the same places. Not the same digest as
 * {@link contentHash} of the same value.
 */
export function bytesContentHash(value: unknown): string {
  const hash = createHash('sha256');
  const visit = (v: unknown): void => {
    if (ArrayBuffer.isView(v)) {
      hash.update(`${v.constructor.name}:${v.byteLength}:`);
      hash.update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    } else if (Array.isArray(v)) {
      hash.update(`[${v.length}:`);
      v.forEach(visit);
      hash.update(']');
    } else if (v !== null && typeof v === 'object') {
      for (const key of Object.keys(v).sort()) {
        const entry = (v as Record<string, unknown>)[key];
        if (entry === undefined) continue;
        hash.update(`${JSON.stringify(key)}=`);
        visit(entry);
      }
      hash.update('}');
    } else hash.update(`${JSON.stringify(v)};`);
  };
  visit(value);
  return hash.digest('hex');
}
