/** One line of a reproduction's budget: `count` trainings of `epochs` epochs at `secondsPerEpoch` each, on one worker. */
export interface BudgetLine {
  readonly what: string;
  readonly count: number;
  readonly epochs: number;
  readonly secondsPerEpoch: number;
}

/** A reproduction's cold cost: its trainings spread over `workers`, plus `otherMinutes` of serial work. */
export interface Budget {
  readonly trainings: readonly BudgetLine[];
  readonly workers: number;
  /** Serial minutes besides the listed trainings (other columns, the attacks, the evaluation). */
  readonly otherMinutes: number;
}

/** The cold wall time of a budget in minutes: Σ count × epochs × seconds per epoch ÷ workers, plus the serial minutes. */
export const budgetMinutes = (b: Budget): number =>
  b.trainings.reduce((s, t) => s + t.count * t.epochs * t.secondsPerEpoch, 0) / b.workers / 60 + b.otherMinutes;
