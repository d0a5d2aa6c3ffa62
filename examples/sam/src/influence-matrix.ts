import { readFile } from 'node:fs/promises';
import { parseNpy } from '@mia/attacks';
import { InvalidArgumentError, ShapeMismatchError } from '@mia/core';

/** Environment variable naming a user-provided influence matrix for `sam-fig3`. */
export const INFLUENCE_ENV = 'MIA_SAM_INFLUENCE';

/**
 * Parses a user-provided influence matrix `[numTest × numTrain]` (row i = the target's i-th test
 * non-member, column j = its j-th member, in `ctx.loadModel` order), e.g. Feldman & Zhang's
 * estimates re-indexed to the run's partition: a `.npy` 2-D array, or JSON `{"influence": number[][]}`.
 *
 * @param bytes - the file contents; `name` decides the format (`.npy` or JSON).
 * @returns the row-major matrix.
 * @throws ShapeMismatchError when the shape is not `[numTest, numTrain]`; InvalidArgumentError on a malformed file.
 * @see SAM-privacy §3.2 (influence scores), Eq. 2
 */
export function parseInfluenceMatrix(bytes: Uint8Array, name: string, numTest: number, numTrain: number): Float64Array {
  const fn = 'parseInfluenceMatrix';
  let shape: readonly number[];
  let data: Float64Array;
  if (name.endsWith('.npy')) {
    ({ shape, data } = parseNpy(bytes, name));
  } else {
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch (error) {
      throw new InvalidArgumentError(`${fn}: ${name} must be a .npy file or JSON {"influence": number[][]}, got unparsable JSON`, { cause: error });
    }
    const rows = (json as { influence?: unknown } | null)?.influence;
    if (!Array.isArray(rows) || !rows.every((r) => Array.isArray(r) && r.every((v) => typeof v === 'number'))) {
      throw new InvalidArgumentError(`${fn}: ${name} must hold {"influence": number[][]}, got ${JSON.stringify(json)?.slice(0, 80)}`);
    }
    const width = (rows[0] as number[] | undefined)?.length ?? 0;
    if (!rows.every((r) => (r as number[]).length === width)) throw new ShapeMismatchError(`${fn}: ${name}: every row of influence must have ${width} entries`);
    shape = [rows.length, width];
    data = Float64Array.from((rows as number[][]).flat());
  }
  if (shape.length !== 2 || shape[0] !== numTest || shape[1] !== numTrain) {
    throw new ShapeMismatchError(
      `${fn}: ${name} must be [numTest, numTrain] = [${numTest}, ${numTrain}] (the target's test non-members × members), got [${shape.join(', ')}]`,
    );
  }
  return data;
}

/** Reads the matrix named by `$MIA_SAM_INFLUENCE`, or undefined when the variable is unset. */
export async function influenceFromEnv(numTest: number, numTrain: number): Promise<{ path: string; influence: Float64Array } | undefined> {
  const path = process.env[INFLUENCE_ENV];
  if (path === undefined || path === '') return undefined;
  return { path, influence: parseInfluenceMatrix(new Uint8Array(await readFile(path)), path, numTest, numTrain) };
}
