/**
 * The CRL paper's Table 1 (arXiv:2404.17674, §5.2, "Table 1: Comparisons for trade-offs between
 * privacy and utility"), transcribed as fractions (the paper prints percentages): per dataset, per
 * model, per approach, `[train acc, test acc, NN AUC, entropy AUC, m-entropy AUC, Grad-x ℓ2 AUC]`;
 * `undefined` where the paper prints "N/A" (no white-box attack on DenseNet121).
 */

/** The approaches (rows) of Table 1, in the paper's order. */
export const APPROACHES = ['CE', 'AdvReg', 'RelaxLoss', 'CRL'] as const;
export type Approach = (typeof APPROACHES)[number];

/** The metric columns of Table 1, in the paper's order. */
export const TABLE1_COLUMNS = ['Train Acc.', 'Test Acc.', 'NN-Based AUC', 'Entropy AUC', 'M-Entropy AUC', 'Grad-x ℓ2 AUC'] as const;
export type Table1Column = (typeof TABLE1_COLUMNS)[number];

/** The AUC columns (the attacks), in the paper's order. */
export const AUC_COLUMNS = ['NN-Based AUC', 'Entropy AUC', 'M-Entropy AUC', 'Grad-x ℓ2 AUC'] as const satisfies readonly Table1Column[];

type Row = readonly [number, number, number, number, number, number | undefined];

const pct = (row: readonly (number | undefined)[]): Row => row.map((v) => (v === undefined ? undefined : v / 100)) as unknown as Row;

/** Table 1a (CIFAR-10), 1b (CIFAR-100, augmentation), 1c (SVHN): `[dataset][model][approach]`. */
export const TABLE1_PAPER: Readonly<Record<string, Readonly<Record<string, Readonly<Record<Approach, Row>>>>>> = {
  // Table 1a, "On CIFAR-10".
  cifar10: {
    VGG11: {
      CE: pct([100.0, 76.46, 76.31, 74.16, 74.9, 75.33]),
      AdvReg: pct([99.29, 69.52, 72.44, 64.96, 69.23, 69.84]),
      RelaxLoss: pct([73.0, 64.15, 64.54, 56.89, 60.78, 66.22]),
      CRL: pct([89.37, 73.69, 61.33, 61.95, 62.48, 61.95]),
    },
    ResNet18: {
      CE: pct([100.0, 70.31, 88.09, 85.91, 86.44, 86.32]),
      AdvReg: pct([97.57, 54.97, 77.54, 71.1, 79.28, 70.7]),
      RelaxLoss: pct([91.56, 69.25, 77.32, 71.51, 72.25, 73.51]),
      CRL: pct([86.73, 71.53, 60.21, 63.7, 65.15, 65.34]),
    },
    DenseNet121: {
      CE: pct([100.0, 84.73, 59.0, 65.78, 66.38, undefined]),
      AdvReg: pct([99.98, 81.72, 55.96, 63.69, 64.94, undefined]),
      RelaxLoss: pct([92.7, 80.22, 54.38, 57.42, 59.12, undefined]),
      CRL: pct([91.82, 83.03, 51.49, 53.28, 55.23, undefined]),
    },
  },
  // Table 1b, "On CIFAR-100, data augmentations applied".
  cifar100: {
    GoogLeNet: {
      CE: pct([99.78, 58.59, 82.7, 77.4, 79.56, 79.78]),
      AdvReg: pct([99.22, 52.45, 84.02, 76.2, 81.42, 80.07]),
      RelaxLoss: pct([90.98, 57.9, 65.29, 70.13, 73.79, 74.54]),
      CRL: pct([87.39, 58.16, 64.72, 67.1, 70.08, 70.94]),
    },
    ResNet18: {
      CE: pct([100.0, 58.06, 86.88, 82.96, 84.04, 84.2]),
      AdvReg: pct([99.43, 48.98, 86.99, 79.87, 85.35, 80.03]),
      RelaxLoss: pct([77.46, 55.28, 69.87, 63.52, 66.6, 69.05]),
      CRL: pct([79.74, 57.53, 66.48, 63.8, 65.09, 66.07]),
    },
    DenseNet121: {
      CE: pct([99.01, 62.76, 58.92, 71.34, 74.46, undefined]),
      AdvReg: pct([99.16, 59.51, 59.9, 73.52, 77.1, undefined]),
      RelaxLoss: pct([73.46, 58.06, 55.12, 57.03, 61.05, undefined]),
      CRL: pct([77.39, 60.32, 50.23, 59.98, 61.58, undefined]),
    },
  },
  // Table 1c, "On SVHN".
  svhn: {
    VGG11: {
      CE: pct([99.98, 92.66, 53.09, 54.14, 54.63, 54.51]),
      AdvReg: pct([98.72, 90.72, 52.4, 54.53, 55.31, 54.54]),
      RelaxLoss: pct([95.42, 91.65, 51.67, 52.02, 52.34, 52.36]),
      CRL: pct([94.7, 91.5, 50.15, 52.32, 52.48, 52.38]),
    },
    ResNet18: {
      CE: pct([100.0, 93.04, 52.93, 54.74, 55.07, 54.79]),
      AdvReg: pct([99.9, 90.47, 52.18, 55.14, 55.79, 55.07]),
      RelaxLoss: pct([95.39, 93.07, 51.8, 52.12, 52.23, 52.08]),
      CRL: pct([95.82, 93.13, 50.04, 51.92, 52.02, 51.89]),
    },
  },
};

/** The paper's value of one cell, or undefined ("N/A" or not in the paper). */
export function paperValue(dataset: string, model: string, approach: Approach, column: Table1Column): number | undefined {
  return TABLE1_PAPER[dataset]?.[model]?.[approach]?.[TABLE1_COLUMNS.indexOf(column)];
}
