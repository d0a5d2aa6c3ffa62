import { describe, expect, it } from 'vitest';
import { byScale, getReproduction, registerReproductions, reproductionNames } from './registry';
import type { Reproduction } from './types';

const reproduction = (name: string): Reproduction =>
  ({ name, paper: 'demo', title: `Demo ${name}`, source: 'none', run: () => Promise.reject(new Error('not run')) }) as unknown as Reproduction;

describe('the reproduction registry', () => {
  it('lists the registered names sorted, whatever order they were registered in', () => {
    const [b, a] = [reproduction('zeta-table2'), reproduction('alpha-table1')];
    registerReproductions([b, a]);
    expect(reproductionNames()).toEqual(['alpha-table1', 'zeta-table2']);
    expect(getReproduction('alpha-table1')).toBe(a);
    expect(getReproduction('beta-table1')).toBeUndefined();
  });

  it('takes the same object twice but refuses another object under a registered name', () => {
    const first = reproduction('twice-table3');
    registerReproductions([first]);
    registerReproductions([first]);
    expect(() => registerReproductions([reproduction('twice-table3')])).toThrow('registerReproductions: "twice-table3" is already registered');
    expect(getReproduction('twice-table3')).toBe(first);
  });

  it('refuses a name that is not "<paper>-<table>" in lower case, after registering the ones before it', () => {
    expect(() => registerReproductions([reproduction('fine-table4'), reproduction('Upper-Table')])).toThrow(
      'registerReproductions: name must look like "<paper>-<table>" (lower case), got "Upper-Table"',
    );
    expect(() => registerReproductions([reproduction('nodash')])).toThrow('got "nodash"');
    expect(getReproduction('fine-table4')?.name).toBe('fine-table4');
    expect(reproductionNames()).not.toContain('Upper-Table');
  });

  it('byScale picks the value of the scale', () => {
    expect(['smoke', 'cpu', 'paper'].map((s) => byScale(s as 'smoke', { smoke: 200, cpu: 5000, paper: 25000 }))).toEqual([200, 5000, 25000]);
  });
});
