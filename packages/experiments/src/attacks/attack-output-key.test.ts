import { signalsFromLogits, type ModelSignals } from '@mia/attacks';
import { seededRandom } from '@mia/core';
import { describe, expect, it, vi } from 'vitest';
import { attackOutputKey, signalsDigest } from './cached-attack-suite';

// Fixed versions: the key includes the code versions, which change with every release.
vi.mock('../store/versions', () => ({ packageVersions: () => ({ '@mia/core': '0.1.0', '@mia/experiments': '0.2.0' }) }));

const C = 3;
function signals(n: number, margin: number, seed: number): ModelSignals {
  const random = seededRandom(seed);
  const labels = Array.from({ length: n }, () => random.int(C));
  const logits = labels.flatMap((y) => Array.from({ length: C }, (_, j) => random.normal() + (j === y ? margin : 0)));
  return {
    ...signalsFromLogits(logits, labels, C),
    queries: [
      signalsFromLogits(
        logits.map((v) => v - 1),
        labels,
        C,
      ),
    ],
  };
}

describe('attackOutputKey', () => {
  // Keys computed before the signals' digest moved to store/canonical-hash.ts (bytesContentHash): the
  // cached attack outputs of earlier runs are found under these keys.
  const target = { members: signals(8, 2, 1), nonMembers: signals(8, 0.5, 2) };
  const shadow = { members: signals(8, 2, 3), nonMembers: signals(8, 0.5, 4) };
  const options = { attackOptions: { seed: 7, nnEpochs: 3 }, units: { target: 'a'.repeat(64), shadows: ['b'.repeat(64)] } };

  it('gives the same signals digest and the same keys as before for fixed signals', () => {
    expect(signalsDigest(target)).toBe('4d96cd80e2d0cfe34918bc09e82dc686595cbc6cc8606027952fe1e5db568e11');
    expect(attackOutputKey('nn-mlh', { target, shadow }, options)).toBe('4cb45e9a6c879af409b621982466d6cc5919c9fd72cbbac9b236cc07e0fdf308');
    expect(attackOutputKey('nn-mlh', { target, shadow }, options, true)).toBe('1ac3a294f388ead0de038e9958b6abed7583c4b53c26c6597bb145bfb701691e');
    const entryOf = () => ({ attack: 'nn-mlh', params: { epochs: 3 } });
    expect(attackOutputKey('nn-mlh', { target, shadow }, { ...options, entryOf })).toBe('bbd2564d6b51385f8405c2b42b47146f681b676edb1642d1d88a73eeda8a5d42');
  });
});
