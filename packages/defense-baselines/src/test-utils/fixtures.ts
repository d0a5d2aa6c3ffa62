import type { Classifier } from '@mia/core';
import { syntheticClassification, tinyMlp } from '@mia/core/testing';

/** A small, noisy 3-class task: a member set (overfittable) and disjoint sets from the same task. */
export function tinySplits(sizes: { members: number; other: number; third?: number } = { members: 48, other: 48 }) {
  const common = { numFeatures: 6, numClasses: 3, noise: 1.2, taskSeed: 5 };
  const members = syntheticClassification({ ...common, size: sizes.members, seed: 1 });
  const other = syntheticClassification({ ...common, size: sizes.other, seed: 2 });
  const third = syntheticClassification({ ...common, size: sizes.third ?? 32, seed: 3 });
  return {
    members,
    other,
    third,
    dispose() {
      members.dispose();
      other.dispose();
      third.dispose();
    },
  };
}

/** A fresh tiny MLP for the tiny task. */
export function tinyModel(seed = 0): Classifier {
  return tinyMlp({ inputDim: 6, hidden: [16], numClasses: 3, seed });
}

export function weightsOf(model: Classifier): number[][] {
  return model.trainableVariables.map((v) => Array.from(v.dataSync()));
}
