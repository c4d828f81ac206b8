import { normaliseInput } from '../normalise-input.ts';
import { parseNoisyTemplate, type NoisyTemplate } from './noisy-template.ts';

/** A biometric text as the flows use it: an exact text, or (behind the flag) a noisy template. */
export type BiometricReading = { kind: 'exact'; normalised: string } | { kind: 'noisy'; template: NoisyTemplate };

/**
 * The experimental switch: with `experimentalNoisy` off (the default) every text is exact text,
 * normalised as today, whatever it looks like, so nothing changes for anyone. With it on, an iris code
 * or a feature vector (`parseNoisyTemplate`) becomes a noisy template and every other text stays exact.
 */
export function readBiometric(text: string, { experimentalNoisy = false }: { experimentalNoisy?: boolean } = {}): BiometricReading {
  const template = experimentalNoisy ? parseNoisyTemplate(text) : undefined;
  return template ? { kind: 'noisy', template } : { kind: 'exact', normalised: normaliseInput(text) };
}
