import type * as tf from '@tensorflow/tfjs-core';
import { readCheckpointFile, writeCheckpointFile } from './checkpoint';
import type { Classifier } from './classifier';
import { CheckpointError } from './errors';
import type { NamedState, Optimizer } from './optimizer';
import type { EpochSummary } from './train-options';
import type { TrainingPlugin } from './training-plugin';

const FORMAT = 'mia-train-state-1';

/** Variables saved in a training checkpoint, with position-based keys (names differ between processes). */
function savedVariables(classifier: Classifier, plugins: readonly TrainingPlugin[]): Array<{ key: string; variable: tf.Variable }> {
  return [
    ...classifier.trainableVariables.map((variable, i) => ({ key: `model/${i}`, variable })),
    ...classifier.stateVariables.map((variable, i) => ({ key: `state/${i}`, variable })),
    ...plugins.flatMap((p, j) => (p.variables ?? []).map((variable, i) => ({ key: `plugin/${j}/${i}`, variable }))),
  ];
}

/** Optimizer state names start with a variable name; they are stored with its positional key instead. */
function toKeyed(state: readonly NamedState[], entries: ReturnType<typeof savedVariables>, prefix: string): NamedState[] {
  return state.map(({ name, tensor }) => {
    const hit = entries.find((e) => name.startsWith(`${e.variable.name}/`));
    if (hit === undefined) throw new CheckpointError(`saveTrainingState: optimizer state ${name} belongs to no trained variable`);
    return { name: `${prefix}|${hit.key}|${name.slice(hit.variable.name.length + 1)}`, tensor };
  });
}

function fromKeyed(state: readonly NamedState[], entries: ReturnType<typeof savedVariables>, prefix: string): NamedState[] {
  const out: NamedState[] = [];
  for (const { name, tensor } of state) {
    const [p, key, rest] = name.split('|');
    if (p !== prefix) continue;
    const hit = entries.find((e) => e.key === key);
    if (hit === undefined) throw new CheckpointError(`restoreTrainingState: optimizer state for ${key} has no matching variable`);
    out.push({ name: `${hit.variable.name}/${rest}`, tensor });
  }
  return out;
}

/** Writes weights, BN statistics, plugin variables, optimizer buffers and history atomically. @internal */
export async function saveTrainingState(
  path: string,
  classifier: Classifier,
  optimizer: Optimizer,
  plugins: readonly TrainingPlugin[],
  epochsDone: number,
  history: readonly EpochSummary[],
): Promise<void> {
  const entries = savedVariables(classifier, plugins);
  const optimizerState = toKeyed(optimizer.getState(), entries, 'opt');
  const pluginStates = plugins.flatMap((p, j) => (p.optimizer === undefined ? [] : toKeyed(p.optimizer.getState(), entries, `popt${j}`)));
  const tensors = [...entries.map((e) => ({ name: e.key, tensor: e.variable as tf.Tensor })), ...optimizerState, ...pluginStates];
  try {
    await writeCheckpointFile(path, {
      meta: { format: FORMAT, epochsDone, history, shapes: entries.map((e) => e.variable.shape), optimizer: optimizer.name },
      tensors,
    });
  } finally {
    for (const s of [...optimizerState, ...pluginStates]) s.tensor.dispose();
  }
}

/**
 * Restores a state written by {@link saveTrainingState} into the classifier, optimizer and plugins.
 * @returns `undefined` when there is no checkpoint at `path`.
 * @throws CheckpointError when the checkpoint belongs to another architecture or is corrupted.
 * @internal
 */
export async function restoreTrainingState(
  path: string,
  classifier: Classifier,
  optimizer: Optimizer,
  plugins: readonly TrainingPlugin[],
): Promise<{ epochsDone: number; history: EpochSummary[] } | undefined> {
  const data = await readCheckpointFile(path);
  if (data === undefined) return undefined;
  try {
    const entries = savedVariables(classifier, plugins);
    const byName = new Map(data.tensors.map((t) => [t.name, t.tensor]));
    if (data.meta.format !== FORMAT) throw new CheckpointError(`restoreTrainingState: ${path} has format ${String(data.meta.format)}, expected ${FORMAT}`);
    for (const e of entries) {
      const saved = byName.get(e.key);
      if (saved === undefined || saved.shape.join(',') !== e.variable.shape.join(',')) {
        throw new CheckpointError(
          `restoreTrainingState: ${path} does not match this model: variable ${e.key} (${e.variable.name}) has shape [${e.variable.shape.join(', ')}], checkpoint has ${saved === undefined ? 'none' : `[${saved.shape.join(', ')}]`}`,
        );
      }
    }
    if (data.tensors.filter((t) => !t.name.includes('|')).length !== entries.length) {
      throw new CheckpointError(`restoreTrainingState: ${path} has a different number of variables than this model and plugins (${entries.length})`);
    }
    for (const e of entries) e.variable.assign(byName.get(e.key)!);
    optimizer.setState(fromKeyed(data.tensors, entries, 'opt'));
    plugins.forEach((p, j) => p.optimizer?.setState(fromKeyed(data.tensors, entries, `popt${j}`)));
    return { epochsDone: Number(data.meta.epochsDone), history: data.meta.history as EpochSummary[] };
  } finally {
    for (const t of data.tensors) t.tensor.dispose();
  }
}
