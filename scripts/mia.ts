// The repository's `pnpm mia`: the `mia` CLI of @mia/experiments with the paper reproductions of
// the example packages registered (`pnpm mia reproduce --list`).
import { registerReproductions } from '@mia/experiments/reproduce';
import { reproductions as ccl } from '@mia/example-ccl';
import { reproductions as crl } from '@mia/example-crl';
import { reproductions as dp } from '@mia/example-dp';
import { reproductions as past } from '@mia/example-past';
import { reproductions as sam } from '@mia/example-sam';

registerReproductions([...past, ...ccl, ...crl, ...sam, ...dp]);
await import('../packages/experiments/src/cli/main');
