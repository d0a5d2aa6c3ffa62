import { hostname } from 'node:os';
import type { ExperimentConfig } from '../schema/run-schema';
import type { PlannedUnit, RunPlan, UnitSpec } from '../plan/plan-run';
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
  readonly unit: UnitSpec;
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
 * Builds the job of each unit of a run's plan: its cache key and label (from the plan), the unit's
 * spec (the worker plans the same run and trains that unit), and this process's versions.
 */
export function unitJobs(plan: RunPlan, units: readonly PlannedUnit[]): UnitJobData[] {
  const versions = packageVersions();
  const submittedBy = processId();
  // Reference models (defenseIndex −1) are units like the others: one job each, keyed by their content.
  return units.map(({ key, label, defenseIndex, role }) => ({
    format: 'mia-unit-job-1',
    key,
    label,
    config: plan.config,
    unit: { defenseIndex, role },
    versions,
    submittedBy,
  }));
}

/**
 * The packages whose versions differ between a job and this process, as `name job≠local` strings.
 * @returns an empty array when the worker may train the job.
 */
export function versionDifferences(job: Record<string, string>, local: Record<string, string>): string[] {
  const names = [...new Set([...Object.keys(job), ...Object.keys(local)])].sort();
  return names.filter((n) => job[n] !== local[n]).map((n) => `${n} ${job[n] ?? 'absent'} (coordinator) ≠ ${local[n] ?? 'absent'} (worker)`);
}
