import { hostname } from 'node:os';
import type { ExperimentConfig } from '../schema/run-schema';
import type { PreparedData } from '../data/prepare-data';
import { unitKey, type TrainUnitSpec } from '../train/train-unit';
import { unitDefense, unitLabel } from '../train/run-units';
import { packageVersions } from '../store/versions';

/** Name of the BullMQ queue holding training units. */
export const UNIT_QUEUE_NAME = 'mia-train-units';

/** What a queued job carries: everything a worker needs to train one unit and check it may. */
export interface UnitJobData {
  readonly format: 'mia-unit-job-1';
  /** The unit's content-addressed cache key; also the BullMQ job id (so a unit is queued once). */
  readonly key: string;
  /** `<defense label>/<role>`, for progress lines. */
  readonly label: string;
  /** The grid-expanded config of the sweep. */
  readonly config: ExperimentConfig;
  readonly unit: TrainUnitSpec;
  /** The coordinator's package versions (part of the key): a worker with others refuses the job. */
  readonly versions: Record<string, string>;
  /** `host:pid` of the coordinator that enqueued the job. */
  readonly submittedBy: string;
}

/** What a worker reports for a finished job. */
export interface UnitJobResult {
  /** `host:pid` of the worker. */
  readonly worker: string;
  readonly backend: string;
  readonly seconds: number;
  /** False when the unit was already in the store (a duplicate job): nothing was trained. */
  readonly trained: boolean;
}

/** `host:pid` of this process, to name workers and coordinators in logs and job results. */
export const processId = (): string => `${hostname()}:${process.pid}`;

/**
 * Builds the job of each unit: its cache key ({@link unitKey}), label and this process's versions.
 * @param config - the grid-expanded config the runner uses.
 */
export function unitJobs(config: ExperimentConfig, data: PreparedData, units: readonly TrainUnitSpec[]): UnitJobData[] {
  const versions = packageVersions();
  const submittedBy = processId();
  return units.map((unit) => {
    // Reference models (defenseIndex −1) are units like the others: one job each, keyed by their content.
    const defense = unitDefense(config, unit);
    return {
      format: 'mia-unit-job-1',
      key: unitKey(config, data, defense, unit.role),
      label: unitLabel(config, unit),
      config,
      unit,
      versions,
      submittedBy,
    };
  });
}

/**
 * The packages whose versions differ between a job and this process, as `name job≠local` strings.
 * @returns an empty array when the worker may train the job.
 */
export function versionDifferences(job: Record<string, string>, local: Record<string, string>): string[] {
  const names = [...new Set([...Object.keys(job), ...Object.keys(local)])].sort();
  return names.filter((n) => job[n] !== local[n]).map((n) => `${n} ${job[n] ?? 'absent'} (coordinator) ≠ ${local[n] ?? 'absent'} (worker)`);
}
