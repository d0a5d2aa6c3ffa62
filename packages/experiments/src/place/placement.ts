import type { ArtifactStore } from '../store/artifact-store';
import { DirectoryArtifactStore } from '../store/artifact-store';
import { missingUnits, type PlannedUnit, type RunPlan } from '../plan/plan-run';
import { trainUnit } from '../train/train-unit';
import { trainUnitsInWorkers, workerIsolation, type WorkerIsolation, type WorkerSlots } from './worker-pool';

/** What a {@link UnitPlacement} is asked to train: units of a run's plan that its store does not hold. */
export interface TrainUnitsRequest {
  readonly plan: RunPlan;
  readonly units: readonly PlannedUnit[];
  readonly store: ArtifactStore;
}

/**
 * Where a run's units train: this thread, a pool of threads or processes, a queue of workers on other
 * machines, or anything else that puts each unit into the store. The runner asks it once per run, for
 * the units its store lacks, and then reads every unit from the store.
 */
export interface UnitPlacement {
  /** Where the units train, for the log line before training (`on 2 worker threads`, `on the queue`). */
  where(units: number): string;
  /** Trains every unit of the request into its store; when it resolves, each is readable from the store. */
  train(request: TrainUnitsRequest): Promise<void>;
}

/** Options of {@link choosePlacement}. */
export interface PlacementOptions {
  /** Worker threads (or processes) for the trainings; 0 trains in this thread. */
  readonly workers: number;
  /** Another placement (e.g. the queue's), which wins over `workers`. */
  readonly placement?: UnitPlacement | undefined;
  /** Pool members as threads or child processes. @default `$MIA_WORKER_ISOLATION`, else threads */
  readonly isolation?: WorkerIsolation | undefined;
  /** Pool slots shared with other runs (a reproduction's): the pool then starts members as slots free up. */
  readonly slots?: WorkerSlots | undefined;
  readonly dataDir?: string | undefined;
  readonly onLog?: ((line: string) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The one place that decides where a run's units train: the given placement, else a pool of
 * `workers` threads or processes over a shared directory store, else this thread.
 * @throws Error when a pool is asked for with a store that is not a {@link DirectoryArtifactStore}.
 */
export function choosePlacement(store: ArtifactStore, options: PlacementOptions): UnitPlacement {
  if (options.placement !== undefined) return options.placement;
  if (options.workers <= 0) return inThisThread(options);
  if (!(store instanceof DirectoryArtifactStore)) throw new Error('runExperiment: worker threads need a DirectoryArtifactStore (a shared directory)');
  return workerPool(store, options);
}

/** Units trained one after the other in this thread (`workers: 0`). */
function inThisThread(options: PlacementOptions): UnitPlacement {
  return {
    where: () => 'in this thread',
    train: async ({ plan, units, store }) => {
      for (const unit of units) await trainUnit(unit, { config: plan.config, data: plan.data, store }, options);
    },
  };
}

/** Units trained side by side in a pool of worker threads or child processes writing into `store`. */
function workerPool(store: DirectoryArtifactStore, options: PlacementOptions): UnitPlacement {
  const processes = workerIsolation(options.isolation) === 'process';
  const members = (n: number) => (processes ? (n === 1 ? 'worker process' : 'worker processes') : n === 1 ? 'worker thread' : 'worker threads');
  return {
    where: (units) =>
      options.slots === undefined
        ? `on ${Math.min(options.workers, units)} ${members(Math.min(options.workers, units))}`
        : `on the reproduction's ${options.workers} shared ${members(options.workers)}`,
    // The members plan the same run themselves and are sent each unit's spec (plain data).
    train: ({ plan, units }) =>
      trainUnitsInWorkers(
        plan.config,
        units.map(({ defenseIndex, role }) => ({ defenseIndex, role })),
        {
          workers: options.workers,
          storeRoot: store.root,
          ...(options.slots === undefined ? {} : { slots: options.slots }),
          ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
          ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
          ...(options.onLog === undefined ? {} : { onLog: options.onLog }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        },
      ),
  };
}

/**
 * Trains the units of `plan` that `store` lacks with `placement`, after one log line (`models 3 of 5
 * in the cache; training 2 on 2 worker threads`).
 * @returns the keys of the units trained in this run (their rows say trained, not cached).
 */
export async function placeUnits(plan: RunPlan, store: ArtifactStore, placement: UnitPlacement, onLog?: (line: string) => void): Promise<ReadonlySet<string>> {
  const missing = await missingUnits(plan, store);
  const total = plan.units.length;
  onLog?.(
    `models     ${total - missing.length} of ${total} in the cache; ${missing.length === 0 ? 'nothing to train' : `training ${missing.length} ${placement.where(missing.length)}`}`,
  );
  if (missing.length > 0) await placement.train({ plan, units: missing, store });
  return new Set(missing.map((u) => u.key));
}
