import { checkedRunConfig } from '../config/run-config';
import { loadExperimentConfig } from '../config/load-config';
import { prepareData } from '../data/prepare-data';
import { defaultModelStore } from '../store/model-store';
import { exportReferences } from '../references/reference-export';

/**
 * `mia references export <config> <dir>`: writes the reference models a config trained (from the
 * model cache; `mia run` it first) in Carlini et al.'s layout, one `experiment-<k>/` with `keep.npy`
 * and `logits.npy` per model, which `references: { import: <dir> }` and their `score.py` read.
 */
export async function referencesExportCommand(configPath: string, dir: string, opts: { dataDir?: string }): Promise<void> {
  const config = await checkedRunConfig(await loadExperimentConfig(configPath), { remote: false });
  const data = await prepareData(config, { dataDir: opts.dataDir });
  const written = await exportReferences(config, data, defaultModelStore(), dir);
  process.stdout.write(`wrote ${written.length} reference models (keep.npy, logits.npy) to ${dir}\n`);
}
