import {
  combineSeeds,
  hanleyMcNeilSe,
  regime,
  rowMetrics,
  testabilityProblem,
  type Reproduction,
  type ReproductionContext,
  type ReproductionTable,
  type TableCell,
} from '@mia/experiments/reproduce';
import { CPU_PLAN, CRL_DATASETS, LAMBDA_SELECTION, REDUCED_MODEL, SHARED_NOTES, groupConfig, planOf, seedsAt, skippedAt, type CrlDataset } from './configs';
import { measureGroup, type GroupMeasurement } from './measure-group';
import { relaxationNote } from './relaxation-counts';
import { APPROACHES, TABLE1_COLUMNS, TABLE1_PAPER, paperValue, type Approach } from './paper-values';
import { TABLE1_CLAIMS, table1Claim, type MeasuredGroup } from './table1-claims';

/**
 * CRL's regime (docs/anchors.md "What the regime gate checks"): the paper's CE models fit their
 * members (ResNet18 on CIFAR-10: 100.00 % train, NN-AUC 88 %), which is the gap CRL's relaxation
 * closes, so CE must reach ≥ 99 % train accuracy (beyond 2 SE); the other thresholds are the
 * docs/protocol.md §5.1 defaults.
 */
export const CRL_REGIME = regime({
  minTrainAccuracy: 0.99,
  why: 'CRL relaxes overfitted CE models: CRL Table 1a reports CE at 100 % train / 70.3 % test, NN-AUC 88.1 on CIFAR-10 (ResNet18), Table 1b 100 % / 58.1 %, NN-AUC 86.9 on CIFAR-100 (ResNet18), Table 1c 100 % / 93.0 %, NN-AUC 52.9 on SVHN. Ours: CE train ≥ 99 % (fitted), test ≥ 3× chance, a gap > 0, each beyond 2 SE; attacks not saturated (best attack accuracy < 95 %, AUC < 0.99)',
});

/** One (dataset, model) group of Table 1 with what was measured or why not. */
interface Group {
  readonly dataset: CrlDataset;
  readonly model: string;
  readonly measurement: GroupMeasurement;
}

/** Row label of a (model, approach) cell row, as in the paper's Table 1. */
export const rowLabel = (model: string, approach: Approach): string => `${model} / ${approach}`;

const GRAD_X_NA = 'N/A as in the paper (no white-box attack on DenseNet121: too costly)';

async function measure(ctx: ReproductionContext, dataset: CrlDataset, model: string): Promise<Group> {
  const skip = skippedAt(ctx.scale, model);
  if (skip !== undefined) return { dataset, model, measurement: { notRun: skip } };
  const config = groupConfig(dataset, model, ctx.scale);
  const measurement = await measureGroup(ctx, `${dataset}-${model.toLowerCase()}`, config, {
    labels: APPROACHES,
    seeds: seedsAt(ctx.scale),
    ...(model === 'DenseNet121' ? { skipGradX: GRAD_X_NA } : {}),
  });
  return { dataset, model, measurement };
}

function caption(dataset: CrlDataset, scale: ReproductionContext['scale']): string {
  const base = 'Cells: ours (paper). Train/test accuracy ↑; every AUC ↓ (50% = chance).';
  const k = seedsAt(scale);
  const seeds = k > 1 ? ` Each cell is the mean over ${k} training seeds (each seed's value in brackets).` : '';
  if (scale === 'paper')
    return `${base}${seeds} ${dataset === 'cifar100' ? 'The paper trains CIFAR-100 with crop+flip augmentation; ours does not.' : ''}`.trim();
  const { plan, maxPerRole } = planOf(dataset, REDUCED_MODEL, scale);
  return `${base} Reduced scale '${scale}': the ${REDUCED_MODEL} rows are ${plan.model.name} ${JSON.stringify(plan.model.options)}, ${maxPerRole} members and ${maxPerRole} non-members per model, ${plan.epochs} epochs, batch ${plan.batchSize}; compare trends, not values.${seeds}`;
}

function buildTable(dataset: CrlDataset, groups: readonly Group[], scale: ReproductionContext['scale']): ReproductionTable {
  const info = CRL_DATASETS[dataset];
  const rows = groups.flatMap((g) =>
    APPROACHES.map((approach) => ({
      label: rowLabel(g.model, approach),
      cells: TABLE1_COLUMNS.map((column): TableCell => {
        const paper = paperValue(dataset, g.model, approach, column);
        const withPaper = paper === undefined ? {} : { paper };
        if ('notRun' in g.measurement) return { ...withPaper, notRun: g.measurement.notRun };
        const row = g.measurement.rows[approach]!;
        const ours = row.values[column];
        if (ours === undefined) return { ...withPaper, notRun: row.reasons[column] ?? 'not run' };
        const perSeed = row.perSeed[column];
        const seeds = g.measurement.seeds;
        return perSeed !== undefined && seeds.length > 1 ? { ...withPaper, ours, perSeed, seeds } : { ...withPaper, ours };
      }),
    })),
  );
  return { title: `${info.table}: ${info.label}`, columns: [...TABLE1_COLUMNS], rows, format: 'pct', caption: caption(dataset, scale) };
}

/**
 * CRL Table 1a–c: train/test accuracy and NN / entropy / m-entropy / Grad-x ℓ2 AUC of CE, AdvReg,
 * RelaxLoss and CRL, per dataset and model, with the paper's values beside ours and the headline
 * claims checked on our numbers.
 * @see CRL (arXiv:2404.17674) §5.2, Table 1; docs/protocol.md §3, §4.3, §4.5, §4.7, §5.
 */
export const crlTable1: Reproduction = {
  name: 'crl-table1',
  paper: 'CRL (Fang & Kim, UAI 2024)',
  title: 'Table 1a–c: privacy–utility of CE, AdvReg, RelaxLoss and CRL (accuracy and attack AUCs)',
  source: 'CRL (arXiv:2404.17674), Table 1',
  description: 'CIFAR-10 (1a), CIFAR-100 (1b) and SVHN (1c); CIFAR-100 and SVHN need --data-dir. At the reduced scales only the ResNet18 rows run.',
  async run(ctx) {
    const groups: Group[] = [];
    for (const dataset of Object.keys(CRL_DATASETS) as CrlDataset[]) {
      for (const model of CRL_DATASETS[dataset].models) groups.push(await measure(ctx, dataset, model));
    }
    const tables = (Object.keys(CRL_DATASETS) as CrlDataset[]).map((d) =>
      buildTable(
        d,
        groups.filter((g) => g.dataset === d),
        ctx.scale,
      ),
    );
    const measured: MeasuredGroup[] = groups.flatMap((g) => {
      const m = g.measurement;
      if ('notRun' in m) return [];
      const results = m.results;
      const row = (a: Approach) => results.rows.find((r) => r.label === a);
      // SEs: the bootstrap (or binomial) SE of train/test accuracy, with several seeds combined with
      // their spread by the runner; Hanley–McNeil for every AUC column (one formula for the suite's AUCs
      // and Grad-x), per seed, combined with the seeds' spread (combineSeeds, docs/protocol.md §5.2).
      const sizes = results.partition.sizes;
      const se = (a: Approach, c: (typeof TABLE1_COLUMNS)[number]) => {
        const r = row(a);
        const perSeed = m.rows[a]?.perSeed[c];
        if (r === undefined || perSeed === undefined) return undefined;
        if (c === 'Test Acc.') return rowMetrics.testAccuracy.estimate(r, results).se;
        if (c === 'Train Acc.') return rowMetrics.trainAccuracy.estimate(r, results).se;
        const hm = perSeed.map((v) => hanleyMcNeilSe(v, sizes.target_train ?? NaN, sizes.target_test ?? NaN));
        return combineSeeds(perSeed, hm).se;
      };
      const gateOf = (kind: 'privacy' | 'utility') =>
        testabilityProblem({ results, undefended: 'CE', compared: ['CE', 'AdvReg', 'RelaxLoss', 'CRL'], regime: CRL_REGIME, kind });
      const gate = gateOf('privacy');
      const utilityGate = gateOf('utility');
      return [
        {
          dataset: g.dataset,
          model: g.model,
          get: (a: Approach, c: (typeof TABLE1_COLUMNS)[number]) => m.rows[a]?.values[c],
          se,
          ...(gate === undefined ? {} : { gate }),
          ...(utilityGate === undefined ? {} : { utilityGate }),
        },
      ];
    });
    const paperGroups = Object.entries(TABLE1_PAPER).flatMap(([d, models]) => Object.keys(models).map((m) => [d, m] as const));
    const claims = TABLE1_CLAIMS.map(([statement, test, strict, kind]) => table1Claim(statement, test, measured, paperGroups, strict, kind));
    const relaxation = groups.flatMap((g) =>
      'notRun' in g.measurement ? [] : [`${CRL_DATASETS[g.dataset].table} ${g.model}: ${relaxationNote(g.measurement.results, ['CRL'])}`],
    );
    return {
      tables,
      claims,
      notes: [
        ...SHARED_NOTES,
        `Claims are gated on ${CRL_REGIME.why}; AUC SEs use Hanley–McNeil on the evaluation set sizes.`,
        ...(ctx.scale === 'cpu' && LAMBDA_SELECTION.pending
          ? [
              `CRL's λ = ${CPU_PLAN.lambda} is the earlier plan's choice (1,500 members × 20 epochs); the candidates ${LAMBDA_SELECTION.grid.join(', ')} are not yet measured on this plan's models (docs/protocol.md §5.3).`,
            ]
          : []),
        ...relaxation,
      ],
    };
  },
};
