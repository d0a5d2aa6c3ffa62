import { isSearchUnaccounted } from '@mia/attacks';
import type { DefenseRow, ExperimentResults, RowDpAudit } from '../run/results';
import { formatEpsilon } from '../run/warnings';
import { attackConfigOf, type DefenseSearch } from '../schema/run-schema';
import { exposureMarkdown } from './exposure-report';
import { whatItMeans } from './what-it-means';
import { referencesMarkdown } from './references-report';
import { markdownTable } from './markdown-table';
import { validityItems } from './validity-report';
import { escapeMarkdownInline, escapeMarkdownParagraph, markdownCode, markdownCodeBlock } from './escape';

const pct = (v: number) => (Number.isFinite(v) ? (100 * v).toFixed(1) : 'n/a');
const num = (v: number, d = 3) => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');

/** The paper's value for a row and column, formatted, or "—". */
function paperValue(results: ExperimentResults, label: string, column: string): string {
  const v = results.config.paper?.values[label]?.[column];
  return v === undefined ? '—' : String(v);
}

/** A value with its bootstrap SE when known: "60.0 ± 1.2". */
const withSe = (value: string, se: number | undefined, format: (v: number) => string) =>
  se === undefined || !Number.isFinite(se) ? value : `${value} ± ${format(se)}`;

/** The paper columns of the main table: the config's `paper.values` key and the column's title. */
const PAPER_COLUMNS = [
  ['p1', 'paper P1'],
  ['testAccuracy', 'paper test acc %'],
] as const;

/** A DP row's accountant ε and δ: "1.00 (δ 1e-5)", "∞ (σ = 0)" without noise, "*" when the accountant does not cover the sampling. */
export function accountantCell(row: DefenseRow): string {
  const p = row.privacy;
  if (p === undefined) return '—';
  const value = p.epsilon === null ? '∞ (no noise)' : `${formatEpsilon(p.epsilon)} (δ ${p.delta})`;
  return p.covered === false ? `${value} *` : value;
}

/** The ε lower bound its best attack proves, flagged when it exceeds the accountant's. */
export function empiricalEpsilonCell(row: DefenseRow): string {
  const e = row.empiricalEpsilon;
  if (e === undefined) return '—';
  return e.exceedsAccountant === true ? `${formatEpsilon(e.epsilon)} > DP ε: BROKEN` : formatEpsilon(e.epsilon);
}

/**
 * Rows of the main table: one per defense, attack advantages as columns (table cells are strings).
 * A paper column appears only when the config gives the paper's value for at least one of its rows.
 */
export function mainTable(results: ExperimentResults): { header: string[]; rows: string[][] } {
  const attacks = results.config.attacks.map((a) => attackConfigOf(a).label).filter((a) => results.rows.some((r) => r.attacks.some((x) => x.attack === a)));
  const paper = PAPER_COLUMNS.filter(([key]) => results.rows.some((r) => results.config.paper?.values[r.label]?.[key] !== undefined));
  const bounds = results.rows.some((r) => r.empiricalEpsilon !== undefined);
  const dp = results.rows.some((r) => r.privacy !== undefined);
  const header = [
    'defense',
    'train acc %',
    'test acc %',
    'loss gap',
    'loss var',
    ...attacks.map((a) => `adv ${a} %`),
    'max adv %',
    ...(dp ? ['DP ε (accountant)'] : []),
    ...(bounds ? ['ε ≥ (attack, 95 %)'] : []),
    'P1',
    ...paper.map(([, title]) => title),
  ];
  const rows = results.rows.map((r) => [
    r.label,
    pct(r.trainAccuracy),
    withSe(pct(r.testAccuracy), r.se?.testAccuracy, pct),
    num(r.lossGap),
    num(r.lossVariance),
    ...attacks.map((a) => pct(r.attacks.find((x) => x.attack === a)?.advantage ?? Number.NaN)),
    withSe(pct(r.maxAdvantage), r.se?.maxAdvantage, pct),
    ...(dp ? [accountantCell(r)] : []),
    ...(bounds ? [empiricalEpsilonCell(r)] : []),
    withSe(num(r.p1), r.se?.p1, num),
    ...paper.map(([key]) => paperValue(results, r.label, key)),
  ]);
  return { header, rows };
}

/** The TPR@FPR columns' caption: what the value in parentheses is. */
export const TPR_AT_FPR_NOTE =
  'TPR@x%FPR: the attack\'s true-positive rate at the threshold with the largest TPR whose false-positive rate on the target\'s non-members is at most x%, in %; "(@y)" after it is that FPR y in %, which can be below x because the ROC moves in steps of 1/(number of non-members) (TPR@0%FPR: the TPR reached with no false positive); "[a–b]" (TPR@0.1%FPR) is the 95 % bootstrap interval of that TPR (members and non-members resampled separately, the threshold chosen again on each resample).';

/** The advantage/P1 explanation under the main table. */
export const RESULTS_NOTE =
  'Advantage = TPR − FPR of each attack\'s decision rule (threshold fitted on the shadow model; for an attack without one, such as LiRA and RMIA, the best threshold on the target, which is optimistic) on the target\'s members vs non-members, so it can be negative; attack scores are "higher = member"; P1 as in docs/protocol.md §5; "± x" is the bootstrap standard error over the evaluation examples (docs/protocol.md §5.1). "paper" columns are the published values, shown when the config gives them.';

/** What the ε columns and the differential-privacy table mean. */
export const EPSILON_NOTE =
  "ε ≥: the lower bound on the ε of (ε, δ)-differential privacy that the row's best attack (highest advantage) proves at 95 % confidence — Clopper–Pearson bounds on its TPR and FPR, the best threshold of its ROC (Jagielski et al. 2020, Nasr et al. 2021), at the DP row's δ, else δ = 0; the threshold is chosen on the same scores, so the bound is slightly optimistic. DP ε: the accountant's ε (Rényi DP of the Poisson-subsampled Gaussian mechanism; * when the training's sampling is not what the accountant assumes). ε with its search, when the row's params were chosen among several DP trainings: the ε of the whole search its config declares (e.g. every candidate's training composed), which is the row's guarantee; the accountant's ε alone is that of one training. A DP row whose attack proves more than its accountant's ε does not have the privacy it claims: it is flagged BROKEN. ε ≥ (canary audit), when the DP row asked for one: the one-run audit's lower bound (Steinke, Nasr & Jagielski 2023; the Gaussian-DP bound of Mahloujifar et al. 2024 decides unless the row chose the (ε, δ) one) from m white-box gradient canaries, each included with probability ½, with the guesses fixed in advance; above the accountant's ε, the DP implementation is broken.";

/** The differential-privacy table: one line per DP row with how its ε was computed, the attack's bound and the verdict; undefined without DP rows. */
export function privacyTable(results: ExperimentResults): { header: string[]; rows: string[][] } | undefined {
  const rows = results.rows.filter((r) => r.privacy !== undefined);
  if (rows.length === 0) return undefined;
  const audited = rows.some((r) => r.privacy!.audit !== undefined);
  const searchOf = (label: string) => results.config.defenses.find((d) => (d.label ?? d.name) === label)?.search;
  const searched = rows.some((r) => searchOf(r.label) !== undefined);
  const opt = (v: number | undefined, d = 4) => (v === undefined ? '—' : String(Number(v.toPrecision(d))));
  return {
    header: [
      'defense',
      'accountant ε',
      ...(searched ? ['ε with its search'] : []),
      'δ',
      'σ',
      'C',
      'q',
      'steps',
      'sampling',
      'RDP order',
      'ε ≥ (attack)',
      ...(audited ? ['ε ≥ (canary audit)'] : []),
      'verdict',
    ],
    rows: rows.map((r) => {
      const p = r.privacy!;
      const e = r.empiricalEpsilon;
      const a = p.audit;
      const verdict =
        a?.broken === true
          ? `BROKEN: the canary audit proves more than the accountant's ε at ${100 * a.confidence} % confidence`
          : e === undefined
            ? 'not attacked'
            : e.exceedsAccountant === true
              ? `BROKEN: the attack proves more than the accountant's ε${p.covered === false ? ' (sampling not covered by the accountant)' : ''}`
              : p.epsilon === null
                ? 'no guarantee (no noise)'
                : 'consistent';
      return [
        r.label,
        p.epsilon === null ? '∞' : formatEpsilon(p.epsilon),
        ...(searched ? [searchCell(searchOf(r.label))] : []),
        String(p.delta),
        opt(p.noiseMultiplier),
        opt(p.clipNorm),
        opt(p.sampleRate),
        p.steps === undefined ? '—' : String(p.steps),
        `${p.sampling ?? '—'}${p.covered === false ? ' (not covered)' : ''}`,
        opt(p.order, 3),
        e === undefined ? '—' : `${formatEpsilon(e.epsilon)} (${e.attack})`,
        ...(audited ? [a === undefined ? '—' : auditCell(a)] : []),
        verdict,
      ];
    }),
  };
}

/** How a DP row's params were chosen, in the DP table: the search's ε, or that it is not accounted. */
function searchCell(search: DefenseSearch | undefined): string {
  if (search === undefined) return '—';
  const what = `best of ${search.candidates}${search.onPrivateData ? ' on private data' : ''}`;
  if (search.epsilon !== undefined) return `${formatEpsilon(search.epsilon)} (${what})`;
  return isSearchUnaccounted(search) ? `not accounted (${what})` : `the accountant's (${what})`;
}

/** A canary audit in the DP table: its deciding bound, which one, and how many guesses were right. */
function auditCell(a: RowDpAudit): string {
  const bound = a.empiricalEpsilon === null ? '∞' : formatEpsilon(a.empiricalEpsilon);
  return `${bound} (${a.decidedBy === 'gdp' ? 'Gaussian DP' : 'one run'}; ${a.guesses.correct}/${a.guesses.made} right, m = ${a.canaries}${a.canRefute ? '' : '; cannot refute this ε'})`;
}

/** One defense's attack table: balanced accuracy, advantage, AUC and TPR at each FPR with the achieved FPR. */
export function attackTable(row: ExperimentResults['rows'][number]): { header: string[]; rows: string[][] } {
  const fprs = row.attacks[0]?.tprAtFpr.map((t) => `TPR@${t.fpr * 100}%FPR %`) ?? [];
  const bounds = row.attacks.some((a) => a.epsilonLowerBound !== undefined);
  const rows = row.attacks.map((a) => [
    a.attack,
    pct(a.accuracy),
    pct(a.advantage),
    num(a.auc),
    ...a.tprAtFpr.map(
      (t) => `${pct(t.tpr)}${t.tprLow === undefined || t.tprHigh === undefined ? '' : ` [${pct(t.tprLow)}–${pct(t.tprHigh)}]`} (@${pct(t.achievedFpr)})`,
    ),
    ...(bounds ? [a.epsilonLowerBound === undefined ? '—' : formatEpsilon(a.epsilonLowerBound)] : []),
  ]);
  return { header: ['attack', 'balanced acc %', 'advantage %', 'AUC', ...fprs, ...(bounds ? ['ε ≥'] : [])], rows };
}

/** How to run it again: the command that ran it (when known) and the config saved beside the report. */
export function reproduceCommands(results: ExperimentResults, configPath?: string): string[] {
  return [
    ...(results.command === undefined ? [] : [`${results.command}   # how this run was made`]),
    ...(configPath === undefined ? [] : [`mia run ${configPath}   # this run alone, from its config as run (defaults filled in)`]),
    ...(results.command === undefined && configPath === undefined ? [`mia run <the config of ${results.config.name}>`] : []),
  ];
}

const table = markdownTable;

/** Options of {@link markdownReport} and `htmlReport`. */
export interface ReportOptions {
  /** Where the run's config was saved (`writeReport` writes `config.json` beside the report), for "Reproduce". */
  readonly configPath?: string;
}

const md = escapeMarkdownInline;

/** `report.md`: the tables, the notes (stand-in data, reduced scale), the warnings and how to reproduce the run. */
export function markdownReport(results: ExperimentResults, options: ReportOptions = {}): string {
  const { header, rows } = mainTable(results);
  const meaning = whatItMeans(results);
  const dp = privacyTable(results);
  const attackTables = results.rows.map((r) => {
    const t = attackTable(r);
    return `### ${escapeMarkdownInline(r.label)}\n\n${table(t.header, t.rows)}`;
  });
  return [
    `# ${md(results.config.name)}`,
    '',
    escapeMarkdownParagraph(results.config.description),
    '',
    ...(meaning.length === 0 ? [] : ['## What it means', '', escapeMarkdownParagraph(meaning.join(' ')), '']),
    ...(validityItems(results).length === 0 ? [] : ['## Audit validity', '', ...validityItems(results).map((item) => `- ${md(item)}`), '']),
    ...results.notes.map((n) => `> **Note:** ${md(n)}`),
    ...(results.warnings ?? []).map((w) => `> **Warning:** ${md(w)}`),
    '',
    `Dataset: **${md(results.dataset.name)}** (${results.dataset.source === 'real' ? 'real data' : 'STAND-IN, not the real dataset'}: ${md(results.dataset.description)}), ` +
      `partition ${md(results.partition.preset)} (${md(
        Object.entries(results.partition.sizes)
          .map(([k, v]) => `${k} ${v}`)
          .join(', '),
      )}), ` +
      `model ${md(results.config.model.name)}, ${md(String(results.config.training.epochs))} epochs, scale ${markdownCode(results.config.scale)}, seed ${md(String(results.config.seed))}, backend ${md(results.backend)}.`,
    '',
    '## Results',
    '',
    RESULTS_NOTE,
    '',
    table(header, rows),
    '',
    ...(results.rows.some((r) => r.empiricalEpsilon !== undefined || r.privacy !== undefined) ? [EPSILON_NOTE, ''] : []),
    ...(dp === undefined ? [] : ['## Differential privacy', '', table(dp.header, dp.rows), '']),
    '## Attacks per defense',
    '',
    TPR_AT_FPR_NOTE,
    '',
    ...attackTables.flatMap((t) => [t, '']),
    ...referencesMarkdown(results),
    ...exposureMarkdown(results),
    '## Reproduce',
    '',
    'With `pnpm mia` in the repository, or `npx mia` where `@mia/experiments` is installed:',
    '',
    ...markdownCodeBlock(reproduceCommands(results, options.configPath), 'bash'),
    '',
    `Versions: ${md(
      Object.entries(results.versions)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
    )}. Started ${md(results.startedAt)}, ${results.seconds.toFixed(1)} s.`,
    '',
  ].join('\n');
}
