import { describe, expect, it } from 'vitest';
import type { SensitivityResult } from './compute-sensitivity';
import { summarizeSensitivity } from './summarize-sensitivity';

const s = [0.01, 0.5, 0.02, 0.3, 0.0, 0.05, 0.2, 0.9, 0.08, 0.15];

// The statistics themselves (shareBelow, topShare) are @mia/metrics' and tested there.
describe('summarizeSensitivity', () => {
  it('summarises overall and per module', () => {
    const result: SensitivityResult = {
      memberLoss: 0.1,
      nonMemberLoss: 0.5,
      lossGap: 0.4,
      groups: [
        { name: 'a', kind: 'dense', shape: [5], gradientGap: Float32Array.from(s.slice(0, 5)), gamma: new Float32Array(5) },
        { name: 'b', kind: 'conv', shape: [5], gradientGap: Float32Array.from(s.slice(5)), gamma: new Float32Array(5) },
      ],
    };
    const { overall, modules } = summarizeSensitivity(result);
    expect(overall.count).toBe(10);
    expect(overall.shareBelow).toBe(0.5);
    expect(overall.topShare).toBeCloseTo(1.7 / 2.21, 6);
    expect(overall.max).toBeCloseTo(0.9, 6);
    // Module b = [0.05, 0.2, 0.9, 0.08, 0.15]: 2 of 5 below 0.1; top index ⌊0.2·5⌋ = 1 → (0.9 + 0.2) / 1.38.
    expect(modules[1]).toMatchObject({ name: 'b', kind: 'conv', count: 5, shareBelow: 0.4 });
    expect(modules[1]!.topShare).toBeCloseTo(1.1 / 1.38, 6);
    expect(summarizeSensitivity(result, { values: 'gamma' }).overall.topShare).toBeNaN();
  });
});
