/**
 * Records named by their index in a shared dataset (`ids`) and/or by their content ({@link contentHashes}):
 * two sets overlap when they share an index or a hash.
 */
export interface RecordSet {
  readonly ids?: ArrayLike<number>;
  readonly hashes?: readonly string[];
}

/** How an attack uses the reference models (what {@link checkReferences} holds them against). */
export interface ReferenceAttackUse {
  /** The attack's result name. */
  readonly name: string;
  readonly method: 'lira' | 'rmia';
  readonly mode: 'online' | 'offline';
  /** LiRA: one σ pooled over every record (true) or one per record (false). @default true */
  readonly fixVariance?: boolean;
  /** How many reference models the attack is configured to use (its first ones). @default all */
  readonly models?: number;
}

/** The reference models of an audit. */
export interface ReferencesDescription {
  /** `keep[k][i]` = 1 when model k is counted IN for audit record i (members, then non-members, then `population`). */
  readonly keep: ReadonlyArray<ArrayLike<number | boolean>>;
  /** RMIA's population z after the members and non-members. */
  readonly population?: RecordSet;
  /** What each model actually trained on, when known (checked against its keep row). */
  readonly trainedOn?: readonly RecordSet[];
  /** The attacks that use them. */
  readonly attacks: readonly ReferenceAttackUse[];
}

/** A TPR an audit states at a target FPR. */
export interface OperatingPointClaim {
  /** Where it is stated, e.g. `row none, attack loss` or `--max-tpr-at-fpr`. */
  readonly where: string;
  /** The target FPR (a fraction). */
  readonly fpr: number;
  /** The FPR the TPR was read at, when known. */
  readonly achievedFpr?: number;
  /** Non-members the FPR is measured on. */
  readonly numNonMembers: number;
  /** Whether the achieved FPR is shown beside the TPR (then a target below 1/n is read correctly). */
  readonly showsAchievedFpr: boolean;
}

/** Something chosen or trained on records other than the target's members: a threshold, a checkpoint, a setting, a defense's extra data. */
export interface SelectionDescription {
  /** What was chosen, e.g. `the best-validation checkpoint`. */
  readonly what: string;
  /** The records it was chosen on, when known. */
  readonly records?: RecordSet;
  /** Which data it was chosen on, when declared rather than listed. */
  readonly on?: 'evaluation' | 'validation' | 'training' | 'public';
}

/** The target's declared training and that of each reference or shadow model (settings by name, compared with JSON equality). */
export interface TrainingDescription {
  /** e.g. `{ architecture, schedule, data }`. */
  readonly target: Readonly<Record<string, unknown>>;
  readonly others: ReadonlyArray<{ readonly name: string; readonly settings: Readonly<Record<string, unknown>> }>;
}

/** How a DP model's hyperparameters were chosen: the part of a search that decides whether its ε must account for it. */
export interface PrivacySearch {
  /** Settings tried. */
  readonly candidates: number;
  /** Whether the search read private data (the training set, or a validation slice of the private data). */
  readonly onPrivateData: boolean;
  /** Whether the reported ε accounts for the search (e.g. Papernot & Steinke's random-stopping bound). */
  readonly accounted: boolean;
}

/**
 * Whether a search leaves the ε of one training unaccounted: a best of two or more DP trainings
 * chosen on private data, with the search not counted in the reported ε. A search of one candidate,
 * or one on public data, costs no privacy.
 */
export function isSearchUnaccounted(search: PrivacySearch): boolean {
  return search.candidates >= 2 && search.onPrivateData && !search.accounted;
}

/** A differential-privacy ε an audit reports, and how its hyperparameters were chosen. */
export interface PrivacyClaim {
  /** The model or row, e.g. a row label. */
  readonly name: string;
  /** The reported ε (null: no guarantee). */
  readonly epsilon: number | null;
  /** A hyperparameter search the model came out of. */
  readonly search?: PrivacySearch;
}

/**
 * An audit as the validity checks see it: which records are evaluated, and how everything around
 * them (shadows, references, thresholds, selections, training, DP claims) was made. Every part is
 * optional: a check without its part finds nothing.
 */
export interface AuditDescription {
  /** The target's evaluation members. */
  readonly members: RecordSet;
  /** The target's evaluation non-members. */
  readonly nonMembers: RecordSet;
  /** Shadow models and the records each trained on. */
  readonly shadows?: ReadonlyArray<{ readonly name: string; readonly members: RecordSet }>;
  readonly references?: ReferencesDescription;
  readonly operatingPoints?: readonly OperatingPointClaim[];
  readonly selections?: readonly SelectionDescription[];
  readonly training?: TrainingDescription;
  readonly privacy?: readonly PrivacyClaim[];
}
