import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as metrics from './index';

const here = new URL('.', import.meta.url).pathname;

describe('@mia/metrics package', () => {
  it('has no dependencies of any kind', () => {
    const pkg = JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8')) as Record<string, unknown>;
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      expect(Object.keys((pkg[field] as object | undefined) ?? {})).toEqual([]);
    }
  });

  it('imports only its own files from src (no tfjs, no @mia/*, no node built-ins)', () => {
    const files = readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    for (const file of files) {
      const specifiers = [...readFileSync(join(here, file), 'utf8').matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]!);
      for (const specifier of specifiers) expect(`${file}: ${specifier}`).toMatch(/: \.\/[a-z0-9-]+$/);
    }
  });

  it('exports the public functions', () => {
    const names = [
      'rocCurve',
      'auc',
      'tprAtFpr',
      'operatingPoint',
      'bestOperatingPoint',
      'attackAdvantage',
      'balancedAccuracy',
      'p1Score',
      'summarizeAttack',
      'summarizeScores',
      'clopperPearson',
      'rateIntervals',
      'dkwAdvantageInterval',
      'empiricalEpsilonLowerBound',
      'betaQuantile',
      'regularizedIncompleteBeta',
      'studentTCdf',
      'studentTQuantile',
      'bootstrapAuc',
      'bootstrapAucAndAdvantage',
      'bootstrapAucAndAdvantageOfEach',
      'bootstrapTprAtFpr',
      'bootstrapRocStatistic',
      'seededUniform',
      'delongAuc',
      'delongAucDifference',
      'blindBaseline',
      'blindLabelBaseline',
      'fitThreshold',
      'fitClassThresholds',
      'evaluateClassThresholds',
      'fitThresholdSel',
      'selThresholdAttack',
      'lossGap',
      'lossVariance',
      'lowerBound',
      'giniShifted',
      'giniAbs',
      'sensitivityShareBelow',
      'sensitivityTopShare',
      'MetricsError',
      'stratifiedBootstrapSe',
      'weightedScores',
      'weightedMean',
      'kendallTau',
      'normalCdf',
      'normalLogCdf',
      'normalQuantile',
      'gdpDelta',
      'gdpEpsilon',
      'gdpMu',
      'oneRunEpsilon',
      'oneRunGdp',
      'canaryGuesses',
      'auditCanaries',
    ];
    for (const name of names) expect(typeof (metrics as Record<string, unknown>)[name], name).toBe('function');
    expect(Object.keys(metrics).sort()).toEqual([...names].sort());
  });
});
