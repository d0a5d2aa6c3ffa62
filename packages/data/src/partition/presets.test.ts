import { describe, expect, it } from 'vitest';
import { partition } from './partition';
import { CCL4, CCL5, CRL, PAIRS, PAST6, RELAX5, SELENA } from './presets';
import { checkDisjoint, membershipMatrix, partitionFromJson } from './partition-from-json';

const SIZES = { cifar: 60_000, purchase: 197_324, texas: 67_330, svhn: 99_289 } as const;

/** Role sizes from docs/protocol.md §1.2–1.4 (⌊N/k⌋). */
const EQUAL_SLICES = {
  PAST6: { cifar: 10_000, purchase: 32_887, texas: 11_221, svhn: 16_548 },
  CCL4: { cifar: 15_000, purchase: 49_331, texas: 16_832, svhn: 24_822 },
  CCL5: { cifar: 12_000, purchase: 39_464, texas: 13_466, svhn: 19_857 },
  RELAX5: { cifar: 12_000, purchase: 39_464, texas: 13_466, svhn: 19_857 },
} as const;

function expectDisjointRoles(roles: Readonly<Record<string, readonly number[]>>, n: number): void {
  expect(() => checkDisjoint('test', roles, n)).not.toThrow();
}

describe('equal-slice presets (docs/protocol.md §1.2–1.4, §1.8)', () => {
  for (const preset of [PAST6, CCL4, CCL5, RELAX5]) {
    it(`${preset.name} has the protocol sizes, disjoint roles, and is seeded`, () => {
      for (const [dataset, n] of Object.entries(SIZES) as Array<[keyof typeof SIZES, number]>) {
        const p = preset.split(n, 0);
        expect(Object.keys(p.roles)).toEqual(preset.roles);
        for (const role of preset.roles) expect(p.roles[role]!.length).toBe(EQUAL_SLICES[preset.name as keyof typeof EQUAL_SLICES][dataset]);
        expectDisjointRoles(p.roles, n);
      }
      const a = preset.split(1000, 7);
      expect(preset.split(1000, 7)).toEqual(a);
      expect(preset.split(1000, 8).roles['target_train']).not.toEqual(a.roles['target_train']);
    });
  }

  it('partition() validates its arguments', () => {
    expect(() => partition(10, 3, 0, ['a', 'b'])).toThrow(/roles must have k = 3 names, got 2/);
    expect(() => partition(10, 2, 0, ['a', 'a'])).toThrow(/roles must be distinct/);
    expect(() => partition(1, 2, 0, ['a', 'b'])).toThrow(/n must be at least k = 2, got 1/);
    expect(() => partition(0, 1, 0, ['a'])).toThrow(/n must be a positive integer, got 0/);
  });
});

describe('SELENA (docs/protocol.md §1.5)', () => {
  it('gives Purchase 9 866 / 9 866 / 29 599 / 147 993 and Texas 5 000 / 5 000 / 20 199 / 37 131', () => {
    const purchase = SELENA(0.1, 0.15).split(SIZES.purchase, 0);
    expect([purchase.roles['tr']!.length, purchase.roles['te']!.length, purchase.roles['ref']!.length, purchase.roles['test']!.length]).toEqual([
      9866, 9866, 29_599, 147_993,
    ]);
    expectDisjointRoles(purchase.roles, SIZES.purchase);
    const texas = SELENA(10_000 / SIZES.texas, 0.3).split(SIZES.texas, 0);
    expect([texas.roles['tr']!.length, texas.roles['te']!.length, texas.roles['ref']!.length, texas.roles['test']!.length]).toEqual([
      5000, 5000, 20_199, 37_131,
    ]);
    const cifar = SELENA(50_000 / 60_000, 5000 / 60_000).split(SIZES.cifar, 0);
    expect([cifar.roles['tr']!.length, cifar.roles['ref']!.length, cifar.roles['test']!.length]).toEqual([25_000, 5000, 5000]);
    const svhn = SELENA(0.5, 0.25).split(SIZES.svhn, 0);
    expect(svhn.roles['tr']!.length + svhn.roles['te']!.length + svhn.roles['ref']!.length + svhn.roles['test']!.length).toBe(SIZES.svhn);
    expect(SELENA(0.1, 0.15).split(5000, 1)).toEqual(SELENA(0.1, 0.15).split(5000, 1));
    expect(SELENA(0.1, 0.15).split(5000, 2).roles['tr']).not.toEqual(SELENA(0.1, 0.15).split(5000, 1).roles['tr']);
  });
});

describe('CRL(k) (docs/protocol.md §1.6)', () => {
  it('splits 50/50 target/shadow and draws k different shadow halves', () => {
    for (const [, n] of Object.entries(SIZES)) {
      const p = CRL(5).split(n, 0);
      expect(p.roles['target_train']!.length).toBe(Math.floor(Math.floor(n / 2) / 2));
      expectDisjointRoles(p.roles, n);
      expect(p.models).toHaveLength(5);
      for (const m of p.models!) {
        expect(m.train.length).toBe(Math.floor((n - Math.floor(n / 2)) / 2));
        expectDisjointRoles({ train: m.train, test: m.test }, n);
        // train ∪ test = shadow_pool: same count, and every index is in the pool.
        const inPool = new Uint8Array(n);
        for (const j of p.roles['shadow_pool']!) inPool[j] = 1;
        expect(m.train.length + m.test.length).toBe(p.roles['shadow_pool']!.length);
        expect([...m.train, ...m.test].every((j) => inPool[j] === 1)).toBe(true);
      }
      expect(p.models![0]!.train).not.toEqual(p.models![1]!.train);
    }
    const cifar = CRL(5).split(SIZES.cifar, 0);
    expect([cifar.roles['target_train']!.length, cifar.roles['target_test']!.length, cifar.models![0]!.train.length]).toEqual([15_000, 15_000, 15_000]);
    expect(CRL(2).split(100, 3)).toEqual(CRL(2).split(100, 3));
    expect(CRL(2).split(100, 4).roles['target_train']).not.toEqual(CRL(2).split(100, 3).roles['target_train']);
  });
});

describe('PAIRS(P) (docs/protocol.md §1.7)', () => {
  it('makes every point a member of exactly one model per pair', () => {
    const p = PAIRS(3).split(SIZES.cifar, 0);
    expect(p.models).toHaveLength(6);
    const keep = membershipMatrix(p);
    for (let pair = 0; pair < 3; pair++) {
      for (let i = 0; i < SIZES.cifar; i += 997) expect(keep[2 * pair]![i]! + keep[2 * pair + 1]![i]!).toBe(1);
      expect(p.models![2 * pair]!.train.length).toBe(30_000);
    }
    expect(p.models![0]!.train).not.toEqual(p.models![2]!.train);
    expect(PAIRS(1).split(51, 2)).toEqual(PAIRS(1).split(51, 2));
    expect(PAIRS(1).split(51, 3).models![0]!.train).not.toEqual(PAIRS(1).split(51, 2).models![0]!.train);
  });
});

describe('partitionFromJson', () => {
  it('round-trips every preset through JSON', () => {
    for (const preset of [PAST6, CCL5, SELENA(0.1, 0.15), CRL(2), PAIRS(2)]) {
      const p = preset.split(600, 5);
      const back = partitionFromJson(JSON.parse(JSON.stringify(p)));
      expect(back).toEqual(p);
    }
  });

  it('rejects overlapping roles, indices out of range and malformed input', () => {
    const p = JSON.parse(JSON.stringify(CCL4.split(100, 0))) as { roles: Record<string, number[]>; models?: unknown };
    p.roles['target_test']![3] = p.roles['target_train']![0]!;
    expect(() => partitionFromJson(p)).toThrow(new RegExp(`index ${p.roles['target_train']![0]} is in both target_train and target_test`));
    p.roles['target_test']![3] = 100;
    expect(() => partitionFromJson(p)).toThrow(/roles\.target_test\[3\] must be an integer in \[0, 99\], got 100/);
    expect(() => partitionFromJson(null)).toThrow(/json must be an object/);
    expect(() => partitionFromJson({ preset: 'x', seed: 0, n: 10, roles: {}, models: [{ train: [1, 2], test: [2] }] })).toThrow(
      /models\[0\]: index 2 is in both train and test/,
    );
  });
});
