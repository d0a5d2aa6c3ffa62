import { InvalidArgumentError } from '@mia/core';
import { describe, expect, it } from 'vitest';
import { checkNoBatchNorm, type LayersLike } from './check-no-batch-norm';

const layer = (name: string, className: string, layers?: LayersLike['layers']) => ({ name, getClassName: () => className, layers });

describe('checkNoBatchNorm', () => {
  it('finds BatchNormalization layers of a tf.LayersModel, nested models included', () => {
    const ok: LayersLike = { layers: [layer('dense_1', 'Dense'), layer('dropout_1', 'Dropout'), layer('ln', 'LayerNormalization')] };
    expect(() => checkNoBatchNorm('f', ok)).not.toThrow();
    const nested: LayersLike = {
      layers: [layer('dense_1', 'Dense'), layer('block', 'Sequential', [layer('conv', 'Conv2D'), layer('batch_normalization_3', 'BatchNormalization')])],
    };
    expect(() => checkNoBatchNorm('f', nested)).toThrow(InvalidArgumentError);
    expect(() => checkNoBatchNorm('f', nested)).toThrow(
      "f: model must have no batch normalization (per-example DP does not hold when an example's gradient depends on the rest of the batch; use a GroupNorm variant), got batch-norm modules batch_normalization_3",
    );
  });

  it('lists at most four modules', () => {
    const many: LayersLike = { layers: Array.from({ length: 6 }, (_, i) => layer(`bn${i}`, 'BatchNormalization')) };
    expect(() => checkNoBatchNorm('f', many)).toThrow('got batch-norm modules bn0, bn1, bn2, bn3, … (6 in all)');
  });
});
