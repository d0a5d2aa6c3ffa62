import * as tf from '@tensorflow/tfjs';
import { runCclExperiment, type CclExperimentResult } from './ccl-experiment';

// Page glue: picks the backend (`?backend=webgl`, default cpu, which works everywhere including
// headless Chromium with --disable-gpu), runs the experiment and writes the numbers into the DOM.
const $ = (id: string): HTMLElement => document.querySelector(`[data-testid="${id}"]`)!;
const params = new URLSearchParams(location.search);
const int = (name: string): number | undefined => (params.has(name) ? Number(params.get(name)) : undefined);

function drawLossCurve(losses: readonly number[]): void {
  const svg = $('loss-curve');
  const [w, h, pad] = [600, 160, 10];
  const max = Math.max(...losses);
  const min = Math.min(...losses);
  const points = losses.map((l, i) => `${pad + (i / Math.max(1, losses.length - 1)) * (w - 2 * pad)},${pad + ((max - l) / (max - min || 1)) * (h - 2 * pad)}`);
  svg.innerHTML = `<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="${points.join(' ')}" />`;
}

function show(r: CclExperimentResult): void {
  const fixed = (v: number) => v.toFixed(6);
  $('backend').textContent = r.backend;
  $('members').textContent = `${r.members} / ${r.scores.length - r.members}`;
  $('epochs').textContent = String(r.epochs);
  $('loss-first').textContent = fixed(r.epochLosses[0]!);
  $('loss-last').textContent = fixed(r.epochLosses.at(-1)!);
  $('train-accuracy').textContent = fixed(r.trainAccuracy);
  $('test-accuracy').textContent = fixed(r.testAccuracy);
  $('auc').textContent = fixed(r.auc);
  $('advantage').textContent = fixed(r.advantage);
  $('balanced-accuracy').textContent = fixed(r.balancedAccuracy);
  $('scores').textContent = JSON.stringify({ scores: r.scores, isMember: r.isMember });
  drawLossCurve(r.epochLosses);
}

async function main(): Promise<void> {
  const status = $('status');
  try {
    await tf.setBackend(params.get('backend') ?? 'cpu');
    await tf.ready();
    const result = await runCclExperiment({
      members: int('members'),
      epochs: int('epochs'),
      seed: int('seed'),
      onEpoch: (epoch) => {
        status.textContent = `training, epoch ${epoch + 1}…`;
      },
    });
    show(result);
    status.textContent = 'done';
    status.dataset.state = 'done';
  } catch (error) {
    status.textContent = `error: ${error instanceof Error ? error.message : String(error)}`;
    status.dataset.state = 'error';
    throw error;
  }
}

void main();
