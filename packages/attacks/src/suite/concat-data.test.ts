import * as tf from '@tensorflow/tfjs-core';
import { labeledData } from '@mia/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useCpu } from '../test-utils/setup';
import { concatData } from './concat-data';

beforeAll(useCpu);

describe('concatData', () => {
  it('gathers across both parts in the requested order without leaks', () => {
    const xa = tf.tensor2d([[0], [1], [2]]);
    const xb = tf.tensor2d([[10], [11]]);
    const data = concatData(labeledData({ x: xa, y: [0, 1, 0], numClasses: 2 }), labeledData({ x: xb, y: [1, 1], numClasses: 2 }));
    expect([...data.y]).toEqual([0, 1, 0, 1, 1]);
    const before = tf.memory().numTensors;
    const batch = data.gather([4, 0, 3, 2]);
    expect(tf.memory().numTensors).toBe(before + 1);
    expect([...batch.dataSync()]).toEqual([11, 0, 10, 2]);
    batch.dispose();
    expect(() => concatData(data, labeledData({ x: xa, y: [0, 1, 2], numClasses: 3 }))).toThrow(/same numClasses/);
    xa.dispose();
    xb.dispose();
  });
});
