import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError } from '@mia/core';
import { parse as parseYaml } from 'yaml';
import { type ExperimentConfig } from '../schema/run-schema';
import { parseExperimentConfig } from './parse-config';
import { importDefenseModules, resolveModuleSpecifier } from '../defenses/registry';

/**
 * Reads an experiment config from a `.json`, `.yaml` or `.yml` file, imports its `modules` (paths
 * relative to the file; stored resolved, so workers find them too), resolves `references.import`
 * against the file's directory too, and validates it whole.
 * @throws InvalidArgumentError when the file is missing, not parseable, or invalid (naming the field).
 */
export async function loadExperimentConfig(path: string): Promise<ExperimentConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new InvalidArgumentError(`loadExperimentConfig: cannot read config file ${path} (${(cause as NodeJS.ErrnoException).code ?? 'error'})`, { cause });
  }
  let raw: unknown;
  try {
    raw = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (cause) {
    // The YAML parser's message ends with an excerpt of the lines around the error and a caret: keep it.
    const [first, ...excerpt] = (cause as Error).message.trimEnd().split('\n');
    const shown = excerpt
      .slice(excerpt.findIndex((line) => line.trim() !== ''))
      .slice(0, 8)
      .map((line) => `    ${line}`);
    throw new InvalidArgumentError(
      `loadExperimentConfig: ${path} is not valid ${/\.ya?ml$/i.test(path) ? 'YAML' : 'JSON'}: ${first}${shown.length > 0 ? `\n${shown.join('\n')}` : ''}`,
      { cause },
    );
  }
  const modules = (raw as { modules?: unknown } | null)?.modules;
  if (Array.isArray(modules) && modules.every((m) => typeof m === 'string' && m !== '')) {
    const resolved = modules.map((m: string) => resolveModuleSpecifier(m, dirname(resolve(path))));
    await importDefenseModules(resolved);
    raw = { ...(raw as object), modules: resolved };
  }
  // references.import: a directory relative to the file, stored resolved like the modules.
  const references = (raw as { references?: { import?: unknown } } | null)?.references;
  if (typeof references === 'object' && references !== null && typeof references.import === 'string' && references.import !== '')
    raw = { ...(raw as object), references: { ...references, import: resolve(dirname(resolve(path)), references.import) } };
  return parseExperimentConfig(raw, path);
}
