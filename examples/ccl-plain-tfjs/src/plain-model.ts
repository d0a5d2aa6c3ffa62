import * as tfl from '@tensorflow/tfjs-layers';

/**
 * A plain tfjs-layers MLP for Purchase-like data that knows nothing about `@mia`: tanh hidden
 * layers and a linear head (logits), like the Purchase MLP of docs/protocol.md §2.7 but narrower so it
 * trains on a CPU in a minute.
 */
export function plainMlp(inputDim: number, numClasses: number, hidden: readonly number[], seed: number): tfl.Sequential {
  const model = tfl.sequential();
  hidden.forEach((units, k) => {
    model.add(
      tfl.layers.dense({
        ...(k === 0 ? { inputShape: [inputDim] } : {}),
        units,
        activation: 'tanh',
        kernelInitializer: tfl.initializers.glorotUniform({ seed: seed + k }),
      }),
    );
  });
  model.add(tfl.layers.dense({ units: numClasses, kernelInitializer: tfl.initializers.glorotUniform({ seed: seed + hidden.length }) }));
  return model;
}
