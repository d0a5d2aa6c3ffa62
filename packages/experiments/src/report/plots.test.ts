import { describe, expect, it } from 'vitest';
import { fakeResults, fakeRow, fakeSe } from '../test-utils/reproduction-fixtures';
import { privacyUtilitySpec } from './plots';
import { renderSvg } from './render-svg';

interface Layer {
  mark: { type: string; align?: string };
  transform?: Array<{ filter: { field: string; equal: string } }>;
  encoding: Record<string, { field: string; scale?: { domain: number[] }; legend?: { orient: string } }>;
}

// The main job's numbers: undefended 63.6 % / 62.1 %, RelaxLoss 63.3 % / 47.1 %, SEs ≈ 0.5 points.
const results = fakeResults([
  fakeRow('none', { train: 1, test: 0.636, adv: 0.621, se: fakeSe(0.005) }),
  fakeRow('RelaxLoss', { train: 0.9, test: 0.633, adv: 0.471, se: fakeSe(0.005) }),
]);

describe('privacyUtilitySpec', () => {
  const spec = privacyUtilitySpec(results) as unknown as { data: { values: Array<Record<string, unknown>> }; layer: Layer[] };

  it('draws ± 1 SE bars from row.se in both directions', () => {
    const rules = spec.layer.filter((l) => l.mark.type === 'rule');
    expect(rules.map((l) => [l.encoding.y?.field ?? '', l.encoding.y2?.field ?? '', l.encoding.x?.field ?? '', l.encoding.x2?.field ?? ''])).toEqual([
      ['accLow', 'accHigh', 'maxAdvantage', ''],
      ['testAccuracy', '', 'advLow', 'advHigh'],
    ]);
    const none = spec.data.values.find((v) => v.label === 'none')!;
    expect(none.accLow).toBeCloseTo(0.631, 12);
    expect(none.accHigh).toBeCloseTo(0.641, 12);
    expect(none.advLow).toBeCloseTo(0.616, 12);
    expect(none.advHigh).toBeCloseTo(0.626, 12);
  });

  it('gives every layer the same axes, at least 5 points wide and covering each point ± 2 SE', () => {
    const domains = (channel: 'x' | 'y') => spec.layer.map((l) => l.encoding[channel]!.scale!.domain);
    for (const channel of ['x', 'y'] as const) {
      const [first, ...rest] = domains(channel);
      for (const d of rest) expect(d).toEqual(first);
      expect(first![1]! - first![0]!).toBeGreaterThanOrEqual(0.05 - 1e-12);
    }
    const [yLow, yHigh] = domains('y')[0]!;
    expect(yLow).toBeLessThanOrEqual(0.633 - 0.01 + 1e-12);
    expect(yHigh).toBeGreaterThanOrEqual(0.636 + 0.01 - 1e-12);
    // the 0.3-point accuracy difference fills at most 6 % of the axis, not all of it
    expect(0.003 / (yHigh! - yLow!)).toBeLessThanOrEqual(0.06);
    const [xLow, xHigh] = domains('x')[0]!;
    expect(xLow).toBeLessThanOrEqual(0.471 - 0.01 + 1e-12);
    expect(xHigh).toBeGreaterThanOrEqual(0.621 + 0.01 - 1e-12);
  });

  it('puts the legend under the plot and draws right-half labels to the left of their point', async () => {
    const points = spec.layer.find((l) => l.mark.type === 'point')!;
    expect(points.encoding.color!.legend!.orient).toBe('bottom');
    const texts = spec.layer.filter((l) => l.mark.type === 'text');
    expect(texts.map((t) => [t.transform![0]!.filter.equal, t.mark.align])).toEqual([
      ['right', 'left'],
      ['left', 'right'],
    ]);
    // the undefended point (advantage 62.1 %) is the rightmost: its label goes to its left
    expect(spec.data.values.map((v) => [v.label, v.side])).toEqual([
      ['none', 'left'],
      ['RelaxLoss', 'right'],
    ]);
    const svg = await renderSvg(privacyUtilitySpec(results));
    expect(svg).toContain('bars: ± 1 SE');
  });
});
