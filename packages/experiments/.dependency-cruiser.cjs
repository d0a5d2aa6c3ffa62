// The import rules of @mia/experiments' sources, checked by `pnpm lint` (`depcruise src`, run in this
// folder). Why dependency-cruiser and why these layers: docs/decisions/0045-experiments-layers.md;
// the folders and the flow of a run: docs/architecture.md.

/**
 * The folders of src/, bottom to top: a folder may import the folders listed before it, never one
 * listed after it. Each folder's README.md says the same in words (test/architecture.test.ts checks
 * that they agree, and that docs/architecture.md's diagram names exactly these folders).
 */
const LAYERS = [
  'schema',
  'store',
  'data',
  'defenses',
  'train',
  'plan',
  'references',
  'attacks',
  'place',
  'config',
  'run',
  'report',
  'queue',
  'reproduce',
  'cli',
];

const TESTS = ['\\.test\\.ts$', '^src/test-utils/'];
const folderPath = (folders) => `^src/(${folders.join('|')})/`;

/** One rule per folder but the top one: nothing in it imports a folder above it (no exceptions). */
const layerRules = LAYERS.slice(0, -1).map((folder, i) => ({
  name: `layer-${folder}`,
  comment: `${folder}/ may import ${i === 0 ? 'no other folder' : LAYERS.slice(0, i).join(', ')}, nothing above it`,
  severity: 'error',
  from: { path: `^src/${folder}/`, pathNot: TESTS },
  to: { path: folderPath(LAYERS.slice(i + 1)) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circles, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-defense-imports-the-registry',
      comment: 'defenses get what they need from their context (ctx.trainBase, run.defenses); only the registry itself lists the built-ins',
      severity: 'error',
      from: { path: '^src/defenses/', pathNot: ['^src/defenses/registry\\.ts$', ...TESTS] },
      to: { path: '^src/defenses/registry\\.ts$' },
    },
    {
      name: 'test-utils-only-in-tests',
      comment: 'test-utils/ is for tests (and is not published)',
      severity: 'error',
      from: { pathNot: TESTS },
      to: { path: '^src/test-utils/' },
    },
    ...layerRules,
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
// For test/architecture.test.ts; not enumerable, so dependency-cruiser's config check does not see it.
Object.defineProperty(module.exports, 'layers', { value: LAYERS });
