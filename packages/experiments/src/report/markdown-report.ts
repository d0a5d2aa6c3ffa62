import type { ExperimentResults } from '../results';

const pct = (v: number) => (Number.isFinite(v) ? (100 * v).toFixed(1) : 'n/a');
const num = (v: number, d = 3) => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');

/** The paper's value for a row and column, formatted, or "—". */
function paperValue(results: ExperimentResults, label: string, column: string): string {
  const v = results.config.paper?.values[label]?.[column];
  return v === undefined ? '—' : String(v);
}

/** Rows of the main table: one per defense, attack advantages as columns (table cells are strings). */
export function mainTable(results: ExperimentResults): { header: string[]; rows: string[][] } {
  const attacks = results.config.attacks.filter((a) => results.rows.some((r) => r.attacks.some((x) => x.attack === a)));
  const header = ['defense', 'train acc %', 'test acc %', 'loss gap', 'loss var', ...attacks.map((a) => `adv ${a} %`), 'max adv %', 'P1', 'paper P1', 'paper test acc %'];
  const rows = results.rows.map((r) => [
    r.label,
    pct(r.trainAccuracy),
    pct(r.testAccuracy),
    num(r.lossGap),
    num(r.lossVariance),
    ...attacks.map((a) => pct(r.attacks.find((x) => x.attack === a)?.advantage ?? Number.NaN)),
    pct(r.maxAdvantage),
    num(r.p1),
    paperValue(results, r.label, 'p1'),
    paperValue(results, r.label, 'testAccuracy'),
  ]);
  return { header, rows };
}

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** `report.md`: the tables, the notes (stand-in data, reduced scale) and how to reproduce the run. */
export function markdownReport(results: ExperimentResults): string {
  const { header, rows } = mainTable(results);
  const attackTables = results.rows.map((r) => {
    const body = r.attacks.map((a) => [a.attack, pct(a.accuracy), pct(a.advantage), num(a.auc), ...a.tprAtFpr.map((t) => `${pct(t.tpr)} (@${pct(t.achievedFpr)})`)]);
    const fprs = r.attacks[0]?.tprAtFpr.map((t) => `TPR@${t.fpr * 100}%FPR %`) ?? [];
    return `### ${r.label}\n\n${table(['attack', 'balanced acc %', 'advantage %', 'AUC', ...fprs], body)}`;
  });
  return [
    `# ${results.config.name}`,
    '',
    results.config.description,
    '',
    ...results.notes.map((n) => `> **Note:** ${n}`),
    '',
    `Dataset: **${results.dataset.name}** (${results.dataset.source === 'real' ? 'real data' : 'STAND-IN, not the real dataset'}: ${results.dataset.description}), ` +
      `partition ${results.partition.preset} (${Object.entries(results.partition.sizes).map(([k, v]) => `${k} ${v}`).join(', ')}), ` +
      `model ${results.config.model.name}, ${results.config.training.epochs} epochs, scale \`${results.config.scale}\`, seed ${results.config.seed}, backend ${results.backend}.`,
    '',
    '## Results',
    '',
    'Advantage = TPR − FPR of each attack\'s decision rule (threshold fitted on the shadow model) on the target\'s members vs non-members, so it can be negative; attack scores are "higher = member"; P1 as in docs/protocol.md §5. "paper" columns are the published values where the config gives them.',
    '',
    table(header, rows),
    '',
    '## Attacks per defense',
    '',
    ...attackTables.flatMap((t) => [t, '']),
    '## Reproduce',
    '',
    '```bash',
    `pnpm mia run <this config>   # ${results.config.name}, seed ${results.config.seed}`,
    '```',
    '',
    `Versions: ${Object.entries(results.versions).map(([k, v]) => `${k} ${v}`).join(', ')}. Started ${results.startedAt}, ${results.seconds.toFixed(1)} s.`,
    '',
  ].join('\n');
}
