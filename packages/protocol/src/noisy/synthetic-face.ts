import type { SeededStream } from './seeded-stream.ts';

/** Dimensions of the synthetic embeddings, as ArcFace's (InsightFace) 512. */
export const FACE_DIMENSIONS = 512;
/**
 * Noise a reading adds to the person's direction, per coordinate. Two readings of one person then meet
 * at cosine 1/(1 + 512·σ²) ≈ 0.70 on average, and σ varies by reading (a log-normal factor of spread
 * 0.25) so genuine cosines spread over about 0.55–0.80. That is where ArcFace's positive pairs lie
 * (angles near 45°, Deng et al., CVPR 2019, its figure of angle distributions); its negative pairs lie
 * near 90° (cosine 0), as two independent directions here do, with a standard deviation of
 * 1/√512 ≈ 0.044, narrower than a real model's, so the face figures are on the optimistic side.
 */
export const FACE_NOISE = 0.0289;

const unit = (v: Float64Array) => {
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};

/** A new person: a uniformly random direction. */
export function syntheticFace(stream: SeededStream): Float64Array {
  return unit(Float64Array.from({ length: FACE_DIMENSIONS }, () => stream.normal()));
}

/** A reading of that person: the direction plus Gaussian noise of FACE_NOISE times a log-normal quality factor, normalised. */
export function syntheticFaceReading(person: Float64Array, stream: SeededStream): Float64Array {
  const sigma = FACE_NOISE * Math.exp(0.25 * stream.normal());
  return unit(person.map((x) => x + sigma * stream.normal()));
}

/** The cosine similarity of two vectors. */
export function cosine(a: Float64Array, b: Float64Array): number {
  let dot = 0;
  a.forEach((x, i) => (dot += x * b[i]!));
  return dot / (Math.hypot(...a) * Math.hypot(...b));
}
