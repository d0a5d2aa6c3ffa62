import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rerenderReports } from './report-command';

const dir = mkdtempSync(join(tmpdir(), 'mia-report-command-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('mia report', () => {
  it('mia report re-renders a reproduction (real output of examples/ccl) and each of its runs; bad input fails clearly', async () => {
    const copy = join(dir, 'ccl-table1-cpu');
    cpSync(join(__dirname, '..', '..', '..', '..', 'examples', 'ccl', 'results', 'ccl-table1-cpu'), copy, { recursive: true });
    const before = readFileSync(join(copy, 'report.md'), 'utf8');
    rmSync(join(copy, 'report.md'));
    rmSync(join(copy, 'runs', 'purchase', 'report.html'));
    const written = await rerenderReports(copy);
    expect(written).toContain(join(copy, 'report.md'));
    expect(written).toContain(join(copy, 'runs', 'purchase', 'report.html'));
    expect(readFileSync(join(copy, 'report.md'), 'utf8').split('\n## Claims')[0]).toBe(before.split('\n## Claims')[0]);
    expect(statSync(join(copy, 'runs', 'purchase', 'report.html')).size).toBeGreaterThan(1000);
    expect(readFileSync(join(copy, 'runs', 'purchase', 'report.md'), 'utf8')).toContain(`mia run ${join(copy, 'runs', 'purchase', 'config.json')}`);

    mkdirSync(join(dir, 'empty'), { recursive: true });
    await expect(rerenderReports(join(dir, 'empty'))).rejects.toThrow(
      /report: .*empty holds neither results.json \(of `mia run`\) nor reproduction.json \(of `mia reproduce`\)/,
    );
    mkdirSync(join(dir, 'broken'), { recursive: true });
    writeFileSync(join(dir, 'broken', 'reproduction.json'), '{"format": "mia-reproduction-1", "tables": [');
    await expect(rerenderReports(join(dir, 'broken'))).rejects.toThrow(/report: .*broken\/reproduction.json is not valid JSON/);
    writeFileSync(join(dir, 'broken', 'reproduction.json'), '{"format": "other"}');
    await expect(rerenderReports(join(dir, 'broken'))).rejects.toThrow(/has format "other", expected "mia-reproduction-1"/);
  });

  it("refuses a run directory whose results.json is not JSON or not a run's results, naming the file", async () => {
    mkdirSync(join(dir, 'run'), { recursive: true });
    writeFileSync(join(dir, 'run', 'results.json'), '{"format": "mia-results-1", "rows": [');
    await expect(rerenderReports(join(dir, 'run'))).rejects.toThrow(/report: .*run\/results.json is not valid JSON/);
    writeFileSync(join(dir, 'run', 'results.json'), '{"format": "mia-reproduction-1"}');
    await expect(rerenderReports(join(dir, 'run'))).rejects.toThrow(/run\/results.json has format "mia-reproduction-1", expected "mia-results-1"/);
  });
});
