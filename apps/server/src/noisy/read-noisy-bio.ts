import { parseNoisyTemplate, type NoisyTemplate } from '@zeroid/protocol/noisy';

/**
 * The raw biometric as a noisy template, when EXPERIMENTAL_NOISY_BIOMETRICS is on and the text is
 * an iris code or a feature vector (decision 084); undefined otherwise, and always with the flag
 * off, so the text keeps its exact meaning and every flow is what it was.
 */
export function readNoisyBio(config: { experimentalNoisyBiometrics: boolean }, bioInfo: string): NoisyTemplate | undefined {
  return config.experimentalNoisyBiometrics ? parseNoisyTemplate(bioInfo) : undefined;
}
