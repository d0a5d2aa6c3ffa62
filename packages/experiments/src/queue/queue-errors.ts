import { MiaError } from '@mia/core';

/** Redis is not reachable at the `--queue` address (down, wrong host/port, firewall). */
export class QueueUnavailableError extends MiaError {}

/** A queued training unit failed for good (no retries left, or refused by a worker). */
export class UnitJobFailedError extends MiaError {}
