import { describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../config/parse-config';
import { optimizerFor } from './train-helpers';

const base = {
  name: 'sched',
  dataset: { name: 'purchaseLike' },
  partition: { preset: 'CCL4' },
  model: { name: 'mlp' },
  defenses: [{ name: 'none' }],
};

describe('optimizerFor', () => {
  it("runs a 'piecewise' schedule as CRLr writes it: absolute LR per [start, end), the last matching range wins", () => {
    const config = parseExperimentConfig({
      ...base,
      training: {
        epochs: 120,
        batchSize: 8,
        lr: 0.05,
        schedule: {
          type: 'piecewise',
          ranges: [
            { start: 0, end: 50, lr: 0.05 },
            { start: 50, end: 80, lr: 0.01 },
            { start: 80, end: 110, lr: 0.005 },
            { start: 100, end: 120, lr: 0.001 },
          ],
        },
      },
    });
    const { optimizer, schedule } = optimizerFor(config.training);
    expect([0, 49, 50, 79, 80, 99, 100, 119].map((e) => schedule(e, 0.05))).toEqual([0.05, 0.05, 0.01, 0.01, 0.005, 0.005, 0.001, 0.001]);
    optimizer.dispose();
  });
  it('rejects a piecewise schedule without ranges or with a bad range, naming the field', () => {
    expect(() => parseExperimentConfig({ ...base, training: { epochs: 2, batchSize: 8, lr: 0.1, schedule: { type: 'piecewise', ranges: [] } } })).toThrow(
      /training\.schedule\.ranges/,
    );
    expect(() =>
      parseExperimentConfig({
        ...base,
        training: { epochs: 2, batchSize: 8, lr: 0.1, schedule: { type: 'piecewise', ranges: [{ start: 0, end: 2, lr: -1 }] } },
      }),
    ).toThrow(/training\.schedule\.ranges\.0\.lr|training\.schedule\.ranges\[0\]\.lr/);
  });
});
