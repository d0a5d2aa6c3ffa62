import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findDefense, resolveModuleSpecifier } from '../defenses/registry';
import { loadExperimentConfig } from './load-config';
import { workerModules } from './run-config';

const dir = mkdtempSync(join(tmpdir(), 'mia-config-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixture = join(__dirname, '..', 'test-utils', 'config-module-fixture.ts');
const yaml = (modules: string[]) => `name: modules
dataset: { name: purchaseLike, size: 600 }
partition: { preset: CCL4 }
model: { name: mlp }
training: { epochs: 2, batchSize: 16, lr: 0.1 }
defenses: [{ name: none }, { name: test-config-module }]
modules: [${modules.map((m) => JSON.stringify(m)).join(', ')}]
`;

describe("a config's modules", () => {
  it('resolves relative paths against the config file, keeps package names and URLs', () => {
    expect(resolveModuleSpecifier('./a/b.js', '/x/y')).toBe('file:///x/y/a/b.js');
    expect(resolveModuleSpecifier('/x/c.js')).toBe('file:///x/c.js');
    expect(resolveModuleSpecifier('my-defense-package')).toBe('my-defense-package');
    expect(resolveModuleSpecifier('file:///x/d.js')).toBe('file:///x/d.js');
  });

  it('are imported before validation, stored resolved, and handed to workers', async () => {
    expect(findDefense('test-config-module')).toBeUndefined();
    writeFileSync(join(dir, 'modules.yaml'), yaml([fixture]));
    const config = await loadExperimentConfig(join(dir, 'modules.yaml'));
    const url = pathToFileURL(fixture).href;
    expect(config.modules).toEqual([url]);
    expect(findDefense('test-config-module')).toBeDefined();
    expect(workerModules(config)).toEqual([url]);
  });

  it('a module that cannot be imported fails naming it', async () => {
    writeFileSync(join(dir, 'missing.yaml'), yaml(['./no-such-module.js']));
    await expect(loadExperimentConfig(join(dir, 'missing.yaml'))).rejects.toThrow(/^modules: cannot import "file:\/\/.*no-such-module\.js"/);
  });
});
