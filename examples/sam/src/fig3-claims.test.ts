import { describe, expect, it } from 'vitest';
import { fig3Claims } from './fig3';
import type { BucketSummary } from './memorization-buckets';

// Two non-empty buckets: the lowest (1) where SAM gains 10 points over SGD, the highest (5) where it gains none.
const bucket = (b: number, sgd: number, sam: number, sharp: number, memorization: number): BucketSummary => ({
  bucket: b,
  count: 2000,
  accuracy: { SGD: sgd, SAM: sam, SharpReg: sharp },
  topMemorization: memorization,
  topMemorizationSe: 0.001,
});
const buckets = [bucket(1, 0.5, 0.6, 0.4, 0.9), bucket(2, 0, 0, 0, Number.NaN), bucket(5, 0.7, 0.7, 0.7, 0.1)].map((b) =>
  b.bucket === 2 ? { ...b, count: 0 } : b,
);

describe('SAM Fig. 3 claims', () => {
  it('decides the bucket gains (binomial SEs over the evaluated test points), and only shows the memorisation comparison', () => {
    const [samGain, sharpGain, memorization] = fig3Claims(buckets, '');
    // SAM gains 10 points on bucket 1 and none on bucket 5 (SE ≈ 1.5 points of each gain): holds.
    expect(samGain!.verdict).toBe('holds');
    expect(sharpGain!.verdict).toBe('holds');
    // 0.9 vs 0.1 at SE 0.001 would be z ≈ 570 — but the SE is over the points of one influence estimate, so it is not decided.
    expect(memorization!.statement).toMatch(/shown, not decided/);
    expect(memorization!.verdict).toBe('not testable');
    expect(memorization!.evidence).toMatch(/shown, not decided: bucket 1 0\.900 vs bucket 5 0\.100/);
    expect(memorization!.decision).toMatchObject({ a: 0.9, b: 0.1 });
  });

  it("are not testable when SGD is out of SAM's regime (the gate's reason), the memorisation comparison still shown", () => {
    const claims = fig3Claims(buckets, '', 'undefended train accuracy 80.0 % < 90.0 %');
    expect(claims.map((c) => c.verdict)).toEqual(['not testable', 'not testable', 'not testable']);
    expect(claims[0]!.evidence).toBe('not testable at this scale: undefended train accuracy 80.0 % < 90.0 %');
    expect(claims[2]!.evidence).toMatch(/shown, not decided/);
  });
});
