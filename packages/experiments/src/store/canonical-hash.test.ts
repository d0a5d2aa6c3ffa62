import { describe, expect, it } from 'vitest';
import { bytesContentHash, contentHash } from './canonical-hash';

describe('bytesContentHash', () => {
  // Digests computed with the hasher written out in attacks/cached-attack-suite.ts before it moved here:
  // the attack cache keys hold them, so they must not change.
  const buffer = new Float64Array([1, 2, 3, 4, 5]);
  const mixed = {
    b: new Float32Array([0.5, -1, Infinity]),
    a: [1, 'two', null, true, NaN, { z: undefined, y: new Uint8Array([1, 2, 3]) }],
    c: buffer.subarray(1, 4),
    d: new Int32Array([-7, 7]),
    e: [],
    f: {},
    g: undefined,
  };

  it('hashes typed arrays by their bytes, arrays framed, keys sorted, undefined skipped: the same digests as before', () => {
    expect(bytesContentHash(mixed)).toBe('b35d7ac998270e8781b424c7fcb924f1f32851e897188d18da0d8f7dce192f31');
    expect(bytesContentHash(3)).toBe('58a39c37238ac60eacc3fe90677482f2efc2534e5c581aa8a3689c5833fba7f2');
  });

  it('tells apart what differs in one byte, a view from its whole buffer and the type of an array', () => {
    const digest = bytesContentHash(mixed);
    expect(bytesContentHash({ ...mixed, g: 0 })).not.toBe(digest);
    expect(bytesContentHash({ ...mixed, c: buffer })).not.toBe(digest);
    expect(bytesContentHash({ ...mixed, d: new Uint32Array(new Int32Array([-7, 7]).buffer) })).not.toBe(digest);
    expect(bytesContentHash({ ...mixed, e: [[]] })).not.toBe(digest);
    expect(bytesContentHash(mixed)).not.toBe(contentHash(mixed));
  });
});
