// The import rules of @mia/experiments' sources, checked by `pnpm lint` (`depcruise src`, run in this
// folder). Why dependency-cruiser and why these layers: docs/decisions/0045-experiments-layers.md;
// the folders and the flow of a run: docs/architecture.md.

/**
 * The folders of src/, bottom to top: a folder may import the folders listed before it, never one
 * listed after it. Each folder's README.md says the same in words (test/architecture.test.ts checks
 * that they agree, and that docs/architecture.md's diagram names exactly these folders).
 */
const LAYERS = ['store', 'data', 'defenses', 'train', 'attacks', 'config', 'run', 'report', 'queue', 'reproduce', 'cli'];

/** The run's schema and types: it imports nothing of the package, and every folder may import it. */
const SCHEMA = '^src/config/schema\\.ts$';

/**
 * Imports that point up the layers, each kept for a stated reason. Add none without a decision record.
 * Both wait for reproduce/ to move: the regime thresholds below report/, the re-rendering of a
 * reproduction into reproduce/ or cli/.
 */
const UPWARD_EXCEPTIONS = [
  {
    from: 'report/what-it-means.ts',
    to: ['reproduce/testability.ts'],
    why: "a run report judges the undefended model's regime by the thresholds of docs/protocol.md §5.1",
  },
  {
    from: 'report/report-command.ts',
    to: ['reproduce/reproduction-report.ts', 'reproduce/types.ts'],
    why: '`mia report` re-renders a reproduction directory too',
  },
];

const TESTS = ['\\.test\\.ts$', '^src/test-utils/'];
const escape = (path) => path.replace(/[.]/g, '\\.');
const folderPath = (folders) => `^src/(${folders.join('|')})/`;

const layerRules = LAYERS.slice(0, -1).flatMap((folder, i) => {
  const above = folderPath(LAYERS.slice(i + 1));
  const exceptions = UPWARD_EXCEPTIONS.filter((e) => e.from.startsWith(`${folder}/`));
  const comment = `${folder}/ may import ${i === 0 ? 'no other folder' : LAYERS.slice(0, i).join(', ')} (and config/schema.ts), nothing above it`;
  return [
    {
      name: `layer-${folder}`,
      comment,
      severity: 'error',
      from: { path: `^src/${folder}/`, pathNot: [...TESTS, ...exceptions.map((e) => `^src/${escape(e.from)}$`)] },
      to: { path: above, pathNot: SCHEMA },
    },
    ...exceptions.map((e) => ({
      name: `layer-${folder}-exception`,
      comment: `${comment}; ${e.from} may also import ${e.to.join(', ')}: ${e.why}`,
      severity: 'error',
      from: { path: `^src/${escape(e.from)}$` },
      to: { path: above, pathNot: [SCHEMA, ...e.to.map((t) => `^src/${escape(t)}$`)] },
    })),
  ];
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import circles, type-only imports included. The one left: reproduce/types.ts <-> reproduce/verdicts.ts (types only), until reproduce/ can change.',
      severity: 'error',
      from: { pathNot: '^src/reproduce/(types|verdicts)\\.ts$' },
      to: { circular: true },
    },
    {
      name: 'schema-imports-nothing',
      comment: 'config/schema.ts is the vocabulary of every folder, so it imports none of them',
      severity: 'error',
      from: { path: SCHEMA },
      to: { path: '^src/' },
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
