import type { ValidityView } from './audit-validity-lines';

/** The ceilings of `mia gate`, validated. */
export interface GateCeilings {
  readonly advantage?: number;
  readonly tprAtFpr: Array<[number, number]>;
  readonly confidence: number;
}

/** Outcome of a gate: exit code and the one line that says why, and the audit's validity when the gate checked it. */
export interface GateOutcome {
  readonly exitCode: 0 | 1;
  readonly line: string;
  /** The validity of the gated audit (blind baseline, findings): `mia gate` cannot decide on an audit with findings. */
  readonly validity?: ValidityView;
}
