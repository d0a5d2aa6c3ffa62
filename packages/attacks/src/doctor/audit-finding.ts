/**
 * The code of an audit-validity finding: what is wrong with how an audit was run, as opposed to
 * how much the model leaks. Each code has a fixed meaning, cause and remedy ({@link AUDIT_FINDING_CODES}).
 */
export type AuditFindingCode =
  | 'shadow-overlap'
  | 'reference-overlap'
  | 'evaluation-duplicates'
  | 'references-too-few'
  | 'references-unbalanced'
  | 'tpr-below-resolution'
  | 'fpr-mismatch'
  | 'selected-on-evaluation'
  | 'training-mismatch'
  | 'dp-search-unaccounted'
  | 'distribution-shift';

/** One thing that makes an audit's numbers untrustworthy, with its cause and what to do. */
export interface AuditFinding {
  /** Stable code (`mia gate --allow <code>` acknowledges it). */
  readonly code: AuditFindingCode;
  /** One line: what is wrong, with its numbers. */
  readonly cause: string;
  /** One line: what to do about it. */
  readonly action: string;
  /** The numbers behind the finding (counts, rates, AUCs), by name. */
  readonly numbers: Readonly<Record<string, number>>;
}

/** What a finding code means: a title, why it invalidates an audit, and the work that says so. */
export interface AuditFindingCodeInfo {
  /** A few words. */
  readonly title: string;
  /** Why an audit with it cannot be trusted. */
  readonly why: string;
  /** The reference for it. */
  readonly reference: string;
}

/** Every finding code with its meaning (rendered in `docs/guides/audit-doctor.md`). */
export const AUDIT_FINDING_CODES: Readonly<Record<AuditFindingCode, AuditFindingCodeInfo>> = {
  'shadow-overlap': {
    title: "a shadow model trained on the target's evaluation records",
    why: 'the attack calibrates on a model that saw the records it is then tested on, as members or non-members',
    reference: 'Shokri et al. 2017 (shadow data disjoint from the target’s); Salem et al. 2019',
  },
  'reference-overlap': {
    title: 'a reference model trained on a record it is counted OUT for, or a population record that is a member',
    why: "LiRA's and RMIA's OUT distributions then include IN signals, and RMIA's population z is no longer a non-member sample",
    reference: 'Carlini et al. 2022 §IV (IN/OUT models); Zarifzadeh et al. 2024 §3 (population z)',
  },
  'evaluation-duplicates': {
    title: "an evaluation non-member is a copy of one of the target's members",
    why: 'the model saw its content: counting it a non-member understates the leakage',
    reference: 'Barz & Denzler 2020 (duplicates across CIFAR splits); Carlini et al. 2022 §VI',
  },
  'references-too-few': {
    title: 'fewer reference models than the attack needs or is configured for',
    why: 'a per-example Gaussian fitted on a few models has an unstable σ (and μ), which weakens the attack: the audit understates the leakage',
    reference: 'Carlini et al. 2022 §VI-B (a global σ below 64 models; offline needs enough OUT models)',
  },
  'references-unbalanced': {
    title: 'online references that do not hold each record IN about half the time',
    why: 'an online attack compares IN and OUT models per record: a record IN in few (or most) of them gets one side from too few models',
    reference: 'Carlini et al. 2022 §IV-C (each example in half the models)',
  },
  'tpr-below-resolution': {
    title: 'a TPR stated at an FPR below 1 / (number of non-members)',
    why: 'with n non-members the smallest non-zero FPR is 1/n: a TPR at a lower FPR is the TPR at FPR 0, whatever it is called',
    reference: 'Carlini et al. 2022 §III (TPR at low FPR needs enough non-members)',
  },
  'fpr-mismatch': {
    title: 'a TPR reported at an FPR it was not read at',
    why: 'the threshold gives a larger false-positive rate than the one reported beside the TPR',
    reference: 'Carlini et al. 2022 §III; docs/protocol.md §5 "TPR @ x% FPR"',
  },
  'selected-on-evaluation': {
    title: 'a threshold, checkpoint, setting or defense chosen or trained on the evaluation records',
    why: 'the evaluation records are then no longer unseen: the numbers are fitted to them',
    reference: 'docs/protocol.md A11 (select on a validation slice); Aerni et al. 2024, "Evaluations of machine learning privacy defenses are misleading"',
  },
  'training-mismatch': {
    title: "reference or shadow models trained unlike the target's declared config",
    why: "the attack models the target's training algorithm with them: another architecture, schedule or data gives other signals",
    reference: 'Carlini et al. 2022 §VI-D (mismatched shadow architectures weaken LiRA); Shokri et al. 2017',
  },
  'dp-search-unaccounted': {
    title: 'a DP ε reported for a model whose hyperparameters were searched on private data',
    why: "choosing the best of several DP trainings on the same private data leaks beyond one training's ε",
    reference: 'Papernot & Steinke 2022, "Hyperparameter tuning with Rényi differential privacy"; Liu & Talwar 2019',
  },
  'distribution-shift': {
    title: 'members and non-members can be told apart without the model',
    why: 'a blind baseline (features and labels only) separates them: the attacks may measure the shift, not the leakage',
    reference: 'Das, Zhang & Tramèr 2024, "Blind baselines beat membership inference attacks for foundation models"; Duan et al. 2024; Meeus et al. 2024',
  },
};

/** One line of a finding: `code: cause — action`. */
export const findingLine = (finding: AuditFinding): string => `${finding.code}: ${finding.cause} — ${finding.action}`;
