import { seededStream } from './seeded-stream.ts';

/** The label of the public projection: anyone recomputes the same hyperplanes from it. */
export const PROJECTION_LABEL = 'zeroid/noisy/projection/v1';
/** Bits a feature vector becomes: as many as the smallest iris code, so one locker layout serves both. */
export const PROJECTED_BITS = 2048;

const hyperplanes = new Map<number, Float32Array>();

/** The PROJECTED_BITS × dimensions Gaussian matrix of `seededStream(PROJECTION_LABEL/dimensions)`, row by row. */
function hyperplanesFor(dimensions: number): Float32Array {
  let matrix = hyperplanes.get(dimensions);
  if (!matrix) {
    const stream = seededStream(`${PROJECTION_LABEL}/${dimensions}`);
    matrix = new Float32Array(PROJECTED_BITS * dimensions);
    for (let i = 0; i < matrix.length; i++) matrix[i] = stream.normal();
    hyperplanes.set(dimensions, matrix);
  }
  return matrix;
}

/**
 * A feature vector as bits by random hyperplanes (Charikar's SimHash): bit i is the sign of the
 * vector's dot product with the i-th row of a public Gaussian matrix seeded by PROJECTION_LABEL and
 * the dimension. Two vectors at angle θ differ in each bit independently with probability θ/π, so a
 * cosine similarity becomes a bit error rate the lockers can tolerate; scaling a vector changes
 * nothing. The projection is public and fixed: it hides nothing, the OPRF does the hiding.
 */
export function projectEmbedding(vector: Float64Array): Uint8Array {
  const dimensions = vector.length;
  const matrix = hyperplanesFor(dimensions);
  const bits = new Uint8Array(PROJECTED_BITS);
  for (let i = 0; i < PROJECTED_BITS; i++) {
    let dot = 0;
    const row = i * dimensions;
    for (let d = 0; d < dimensions; d++) dot += matrix[row + d]! * vector[d]!;
    bits[i] = dot >= 0 ? 1 : 0;
  }
  return bits;
}
