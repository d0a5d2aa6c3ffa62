import { InvalidArgumentError } from '@mia/core';
import { attackConfigOf, expandGrid, type ExperimentConfig } from '../schema/run-schema';
import { attackSource } from '../attacks/registry';
import { parseExperimentConfig } from './parse-config';
import { defenseSource } from '../defenses/registry';
import { importConfigModules } from '../defenses/config-modules';

/**
 * The modules worker threads and queue workers import to get the config's defenses and attacks: the
 * config's `modules` plus the module of every user defense and user attack it uses (attacks score
 * in the process that runs the config, so a user attack registered without a module is not refused).
 * @throws InvalidArgumentError naming the defense when one was registered without a module.
 */
export function workerModules(config: ExperimentConfig): string[] {
  const modules = new Set(config.modules);
  config.defenses.forEach((d, i) => {
    const base = d.name === 'past' ? (d.params.base as { name?: unknown } | undefined)?.name : undefined;
    for (const [name, path] of [[d.name, `defenses[${i}].name`], ...(typeof base === 'string' ? [[base, `defenses[${i}].params.base.name`]] : [])] as Array<
      [string, string]
    >) {
      const source = defenseSource(name);
      if (source === 'builtin') continue;
      if (source === undefined) {
        throw new InvalidArgumentError(
          `${path}: the defense ${JSON.stringify(name)} was registered in this process without a module, so worker threads and queue workers cannot load it; give registerDefense a module (module: import.meta.url), list its module in the config's modules, or train in this thread (workers: 0)`,
        );
      }
      modules.add(source);
    }
  });
  for (const entry of config.attacks) {
    const source = attackSource(attackConfigOf(entry).name);
    if (source !== undefined && source !== 'builtin') modules.add(source);
  }
  return [...modules];
}

/**
 * What every run starts with, before any data loads: imports the config's `modules`, validates the
 * whole config (every defense's params against its schema), expands the grids, and, when units
 * train elsewhere (`remote`), lists the modules workers need in `modules`.
 * @throws InvalidArgumentError naming every problem by its config path.
 */
export async function checkedRunConfig(input: ExperimentConfig, options: { readonly remote: boolean; readonly source?: string }): Promise<ExperimentConfig> {
  await importConfigModules(input.modules ?? []);
  const config = parseExperimentConfig(input, options.source ?? 'runExperiment');
  return expandGrid(options.remote ? { ...config, modules: workerModules(config) } : config);
}
