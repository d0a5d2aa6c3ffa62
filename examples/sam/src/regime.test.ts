import { describe, expect, it } from 'vitest';
import { regimeOfColumn } from './column-claims';
import { DATASET_COLUMNS } from './configs';

describe("the regime gate states the paper's regime next to ours", () => {
  it('names the regime the paper reports (its table) and the thresholds used here, for every column', () => {
    expect(regimeOfColumn('CIFAR-100').why).toMatch(
      /Table 4 reports SGD at 99\.98 % train \/ 80\.30 % test with a best single-query attack at 77\.04 %.*Ours: the docs\/protocol\.md §5\.1 defaults/,
    );
    expect(regimeOfColumn('Texas-100').why).toMatch(/78\.28 % train.*Ours: SGD train ≥ 75 %/);
    for (const column of DATASET_COLUMNS) expect(regimeOfColumn(column).paper!.source).toBe(`SAM-privacy Table 4 (SGD, ${column})`);
  });
});
