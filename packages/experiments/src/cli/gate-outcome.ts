/** The ceilings of `mia gate`, validated. */
export interface GateCeilings {
  readonly advantage?: number;
  readonly tprAtFpr: Array<[number, number]>;
  readonly confidence: number;
}

/** Outcome of a gate: exit code and the one line that says why. */
export interface GateOutcome {
  readonly exitCode: 0 | 1;
  readonly line: string;
}
