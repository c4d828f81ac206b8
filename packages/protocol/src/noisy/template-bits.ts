import { FACE_PARAMS, IRIS_PARAMS, type LockerParams } from './locker-params.ts';
import type { NoisyTemplate } from './noisy-template.ts';
import { projectEmbedding } from './project-embedding.ts';

/** The bits the lockers sample, which of them were seen, and the layout that fits the template's kind. */
export interface TemplateBits {
  bits: Uint8Array;
  valid: Uint8Array;
  params: LockerParams;
}

/**
 * A template as bits under its layout: an iris code as it is, with its mask, under IRIS_PARAMS; a
 * feature vector through the public projection, every bit seen, under FACE_PARAMS. `params` may
 * override the layout (the tests use small ones).
 */
export function templateBits(template: NoisyTemplate, params?: LockerParams): TemplateBits {
  if (template.kind === 'code') return { bits: template.bits, valid: template.valid, params: params ?? IRIS_PARAMS };
  const bits = projectEmbedding(template.vector);
  return { bits, valid: new Uint8Array(bits.length).fill(1), params: params ?? FACE_PARAMS };
}
