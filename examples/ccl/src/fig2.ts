import { type DefenseConfig, type DefenseRow } from '@mia/experiments';
import { isNotRun, type NotRun, type Reproduction, type ReproductionScale } from '@mia/experiments/reproduce';
import { AUGMENTATION_ATTACKS, AUGMENTATION_NOT_APPLICABLE, CCL_ATTACKS, UNDEFENDED, attacksOf, baseConfig, isImageDataset, type CclDataset } from './configs';
import { alphaGrid, alphaSweepDefenses, alphaSweepGate, CE_LABEL } from './fig4';
import { baselineGrids, settingLabel, type BaselineGrid } from './fig2-grids';
import { CCL_REGIME } from './table1';
import { fig2Claims, fig2TextTable, type Fig2Setting } from './fig2-claims';
import { chooseFig2Settings, fig2CclAlphas, FIG2_TOLERANCE } from './fig2-choice';
import { tradeoffFigure, type TradeoffPoint } from './figures';
import { advantageOf, settingOf, settingsTable } from './settings-table';

/** Fig. 2's dataset: CIFAR-10/ResNet-34 in the paper; the Purchase stand-in at reduced scales. */
export const fig2Dataset = (scale: ReproductionScale): CclDataset => (scale === 'paper' ? 'cifar10' : 'purchase');

/**
 * CCL Fig. 2: privacy-utility curves (test accuracy vs attack advantage, one panel per attack) of
 * CCQL and CCEL over α against the seven baselines over their grids (App. E.2). Standard defenses use
 * the CCL4 split, AdvReg and Mixup+MMD the CCL5 split with its reference set (§5.1); Dropout is a
 * model option and early stopping a shorter run of the same seeded training (identical to a
 * checkpoint, since the step schedule does not depend on the run's length).
 * @see CCL (arXiv:2402.05453) Fig. 2, §5.2 "Can CCL improve privacy-utility trade-off?"; docs/protocol.md §4.17
 */
export const fig2: Reproduction = {
  name: 'ccl-fig2',
  regimes: [{ column: 'Purchase (stand-in; CIFAR-10 in the paper)', regime: CCL_REGIME, classes: 100 }],
  paper: 'CCL (Liu et al., ICML 2024)',
  title: 'CCL Fig. 2: privacy-utility curves of CCQL/CCEL vs seven baselines',
  source: 'CCL (arXiv:2402.05453), Figure 2 and App. E.2',
  async run(ctx) {
    const scale = ctx.scale;
    const dataset = fig2Dataset(scale);
    const extra = ctx.dataDir === undefined ? {} : { dataDir: ctx.dataDir };
    const probe = baseConfig('probe', dataset, scale, [UNDEFENDED()], extra);
    const grids = baselineGrids(scale, dataset, probe.training.epochs);
    const defensesOf = (via: BaselineGrid['via']): DefenseConfig[] =>
      grids.filter((g) => g.via === via).flatMap((g) => g.values.map((v) => g.defense!(v, settingLabel(g, v))));
    // The CCL sweep is the same config as Fig. 4 plus the CCL4 baselines: shared models come from the cache.
    const main = await ctx.run(
      'main',
      baseConfig(`ccl-alpha-${dataset}-${scale}`, dataset, scale, [...alphaSweepDefenses(dataset, scale), ...defensesOf('defense')], extra),
    );
    const reference = await ctx.run(
      'reference',
      baseConfig(`ccl-fig2-reference-${dataset}-${scale}`, dataset, scale, [UNDEFENDED('w/o (CCL5)'), ...defensesOf('reference-defense')], {
        ...extra,
        preset: 'CCL5',
      }),
    );
    const settings: Fig2Setting[] = [{ family: 'w/o', label: 'w/o', strength: 0, row: settingOf(main, CE_LABEL) }];
    for (const kind of ['CCQL', 'CCEL'] as const) {
      for (const a of alphaGrid(scale)) settings.push({ family: kind, label: `${kind} α=${a}`, strength: a, row: settingOf(main, `${kind} α=${a}`) });
    }
    for (const grid of grids) {
      for (const value of grid.values) {
        const label = settingLabel(grid, value);
        let row: DefenseRow | NotRun;
        if (grid.via === 'defense') row = settingOf(main, label);
        else if (grid.via === 'reference-defense') row = settingOf(reference, label);
        else {
          const id = grid.via === 'dropout' ? `dropout-${value}` : `early-stop-${value}`;
          const options = grid.via === 'dropout' ? { modelOptions: { dropout: value } } : { epochs: value };
          row = settingOf(
            await ctx.run(id, baseConfig(`ccl-fig2-${id}-${dataset}-${scale}`, dataset, scale, [UNDEFENDED(label)], { ...extra, ...options })),
            label,
          );
        }
        settings.push({ family: grid.family, label, strength: value, row, ...(grid.via === 'reference-defense' ? { reference: 'w/o (CCL5)' } : {}) });
      }
    }
    settings.push({ family: 'w/o (CCL5)', label: 'w/o (CCL5)', strength: 0, row: settingOf(reference, 'w/o (CCL5)') });
    const table = settingsTable({
      title: 'Fig. 2: test accuracy and attack advantage per defense setting',
      rows: settings,
      columns: [
        { name: 'test acc', value: (r) => r.testAccuracy },
        ...CCL_ATTACKS.map((attack) => ({ name: attack, value: (r: DefenseRow) => advantageOf(r, attack) })),
        ...AUGMENTATION_ATTACKS.map((attack) =>
          isImageDataset(dataset)
            ? { name: attack, value: (r: DefenseRow) => advantageOf(r, attack) }
            : { name: attack, notRun: `${AUGMENTATION_NOT_APPLICABLE} (${dataset})` },
        ),
        { name: 'max adv', value: (r) => r.maxAdvantage },
      ],
      format: 'pct',
      caption: "Test accuracy (higher is better) and the advantage of each attack (lower is better), per setting of each defense's knob.",
    });
    const vanilla = settings[0]!.row;
    const points: TradeoffPoint[] = settings.flatMap((s) =>
      isNotRun(s.row) || s.family === 'w/o (CCL5)'
        ? []
        : [...attacksOf(dataset), 'max'].map((attack) => ({
            defense: s.family,
            setting: s.label,
            strength: s.strength,
            attack,
            testAccuracy: (s.row as DefenseRow).testAccuracy,
            advantage: attack === 'max' ? (s.row as DefenseRow).maxAdvantage : (advantageOf(s.row as DefenseRow, attack) ?? Number.NaN),
          })),
    );
    // One model, one gate: the undefended model is Fig. 4's, gated by the same framework check (saturation included).
    const choices = chooseFig2Settings(settings, fig2CclAlphas(scale));
    return {
      tables: [table, fig2TextTable(choices)],
      claims: fig2Claims(settings, dataset, choices, isNotRun(main) ? undefined : alphaSweepGate(main)),
      figures: [tradeoffFigure('ccl-fig2', `Fig. 2: privacy-utility curves on ${dataset}`, points, isNotRun(vanilla) ? undefined : vanilla.testAccuracy)],
      notes: [
        ...(scale === 'paper'
          ? []
          : [
              `Reduced scale: Fig. 2 runs on ${dataset === 'purchase' ? 'the Purchase stand-in (purchaseLike, [256, 128] MLP)' : dataset} instead of CIFAR-10/ResNet-34, over a subset of each baseline's grid (App. E.2 grids at paper scale).`,
            ]),
        `The claims compare one setting per defense family, chosen on the validation slice before any attack result is read: its strongest setting whose validation accuracy stays within ${100 * FIG2_TOLERANCE} point of the undefended model's (docs/protocol.md §5.3); CCQL and CCEL choose among α ∈ {${fig2CclAlphas(scale).join(', ')}}, an a-priori subset as large as the largest baseline grid, so no family has more settings to choose from.`,
        'AdvReg and Mixup+MMD use the CCL5 split (its reference set generates the adversary loss); their undefended reference is the "w/o (CCL5)" row. Every other setting uses CCL4.',
        isImageDataset(dataset)
          ? "Augmentation attacks: rotation ±4°, translation d = 1 (CCLr's defaults, docs/protocol.md §3.3)."
          : `The augmentation attacks (rotation, translation) query images; on the tabular ${dataset} data they do not apply.`,
      ],
    };
  },
};
