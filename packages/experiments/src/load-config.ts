import { readFile } from 'node:fs/promises';
import { InvalidArgumentError } from '@mia/core';
import { parse as parseYaml } from 'yaml';
import { parseExperimentConfig, type ExperimentConfig } from './config';

/**
 * Reads an experiment config from a `.json`, `.yaml` or `.yml` file and validates it.
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
    throw new InvalidArgumentError(`loadExperimentConfig: ${path} is not valid ${/\.ya?ml$/i.test(path) ? 'YAML' : 'JSON'}: ${(cause as Error).message.split('\n')[0]}`, { cause });
  }
  return parseExperimentConfig(raw, path);
}
