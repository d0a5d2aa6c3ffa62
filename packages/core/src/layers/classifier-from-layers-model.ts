import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import type { Classifier, ParameterGroup, ParameterKind } from '../classifier';
import { InvalidArgumentError } from '../errors';

/** Options of {@link classifierFromLayersModel}. */
export interface LayersModelAdapterOptions {
  /**
   * The layer whose output is the `features` of {@link Classifier.forward} (CRL needs the
   * penultimate representation): a layer name or index. @default the second-to-last layer
   */
  readonly featureLayer?: string | number;
  /**
   * What the model outputs. With `'probabilities'` (a model ending in softmax) the adapter returns
   * `log(clip(p, 1e-12, 1))` as logits, which has the same softmax. @default 'logits'
   */
  readonly outputs?: 'logits' | 'probabilities';
}

const KINDS: Record<string, ParameterKind> = {
  Dense: 'dense',
  Conv1D: 'conv',
  Conv2D: 'conv',
  Conv3D: 'conv',
  DepthwiseConv2D: 'conv',
  SeparableConv2D: 'conv',
  BatchNormalization: 'batchnorm',
};

function parameterGroupsOf(model: tfl.LayersModel): ParameterGroup[] {
  const groups: ParameterGroup[] = [];
  for (const layer of model.layers) {
    const kind = KINDS[layer.getClassName()];
    if (kind === undefined || layer.trainableWeights.length === 0) continue;
    const find = (suffix: string) => layer.trainableWeights.find((w) => w.originalName.endsWith(suffix))?.read() as tf.Variable | undefined;
    const weight = kind === 'batchnorm' ? find('gamma') : (find('kernel') ?? find('depthwise_kernel'));
    const bias = kind === 'batchnorm' ? find('beta') : find('bias');
    if (weight === undefined) continue;
    groups.push(bias === undefined ? { name: layer.name, kind, weight } : { name: layer.name, kind, weight, bias });
  }
  return groups;
}

/**
 * Adapts a user's `tf.LayersModel` (or `tf.Sequential`) to the {@link Classifier} interface so
 * `train`, the defenses and the attacks can use it. The classifier takes ownership of the model:
 * its `dispose()` disposes the model.
 *
 * Notes: tfjs-layers dropout is not seeded (training with dropout is not bit-reproducible), and
 * tfjs-layers batch normalisation uses Keras momentum semantics, not PyTorch's.
 * @throws InvalidArgumentError when the feature layer does not exist or the model has several inputs/outputs.
 * @example
 * const model = tf.sequential({layers: [tf.layers.dense({inputShape: [600], units: 128, activation: 'tanh'}), tf.layers.dense({units: 100})]});
 * const classifier = classifierFromLayersModel(model);
 */
export function classifierFromLayersModel(model: tfl.LayersModel, options: LayersModelAdapterOptions = {}): Classifier {
  const fn = 'classifierFromLayersModel';
  if (model.inputs.length !== 1 || model.outputs.length !== 1) {
    throw new InvalidArgumentError(`${fn}: model must have one input and one output, got ${model.inputs.length} inputs and ${model.outputs.length} outputs`);
  }
  const layers = model.layers;
  const spec = options.featureLayer ?? layers.length - 2;
  const featureLayer = typeof spec === 'number' ? layers[spec] : layers.find((l) => l.name === spec);
  if (featureLayer === undefined) {
    throw new InvalidArgumentError(
      `${fn}: options.featureLayer must name a layer of the model (${layers.map((l) => l.name).join(', ')}), got ${JSON.stringify(spec)}`,
    );
  }
  const outputShape = model.outputs[0]!.shape;
  const numClasses = outputShape[outputShape.length - 1]!;
  const featureShape = (featureLayer.output as tfl.SymbolicTensor).shape.slice(1) as number[];
  // A feature layer that is the output layer itself (a one-layer model) needs no second head.
  const sameOutput = featureLayer.output === model.outputs[0];
  const twoHeads = sameOutput ? model : tfl.model({ inputs: model.inputs, outputs: [model.outputs[0]!, featureLayer.output as tfl.SymbolicTensor] });
  const probabilities = options.outputs === 'probabilities';
  return {
    numClasses,
    inputShape: model.inputs[0]!.shape.slice(1) as number[],
    featureDim: featureShape.reduce((a, b) => a * b, 1),
    get trainableVariables() {
      return model.trainableWeights.map((w) => w.read() as tf.Variable);
    },
    get stateVariables() {
      return model.nonTrainableWeights.map((w) => w.read() as tf.Variable);
    },
    get parameterGroups() {
      return parameterGroupsOf(model);
    },
    forward(x, { training }) {
      return tf.tidy(() => {
        const applied = twoHeads.apply(x, { training });
        const [out, feat] = sameOutput ? [applied as tf.Tensor, applied as tf.Tensor] : (applied as tf.Tensor[]);
        const logits = (probabilities ? tf.log(tf.clipByValue(out!, 1e-12, 1)) : out!) as tf.Tensor2D;
        return { logits, features: tf.reshape(feat!, [x.shape[0]!, -1]) as tf.Tensor2D };
      });
    },
    dispose() {
      model.dispose();
    },
  };
}
