export { parseQueueUrl, type QueueAddress } from './queue-url';
export { connectRedis, type ConnectRedisOptions } from './redis-connection';
export { QueueUnavailableError, UnitJobFailedError } from './queue-errors';
export { UNIT_QUEUE_NAME, unitJobs, versionDifferences, type UnitJobData, type UnitJobResult } from './unit-job';
export { enqueueUnits, type EnqueueUnitsOptions, type EnqueueSummary } from './enqueue-units';
export { followUnits, type FollowUnitsOptions } from './follow-units';
export { queueTrainer, enqueueSweep, type QueueSweepOptions } from './queue-sweep';
export { startQueueWorker, type QueueWorkerOptions, type QueueWorkerHandle } from './queue-worker';
