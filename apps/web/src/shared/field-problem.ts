import { ProtocolInputError } from '@zeroid/protocol/errors';
import { MAX_INPUT_BYTES, normaliseInput } from '@zeroid/protocol/normalise-input';

/**
 * What is wrong with an ID or biometric field, by the rule the server applies (normalisation: empty
 * after it, or past 16 KiB), in a sentence that names the field and never quotes it; undefined when it
 * is fine. Checked on the page before any network or worker step (the server checks again).
 */
export function fieldProblem(value: string, label: string): string | undefined {
  try {
    normaliseInput(value);
    return undefined;
  } catch (error) {
    if (!(error instanceof ProtocolInputError)) throw error;
    switch (error.code) {
      case 'MALFORMED_TEXT':
        return `${label} contains a broken character. Please type it again rather than paste it.`;
      case 'EMPTY_INPUT':
        return `${label} is empty. Please enter it and try again.`;
      default:
        return `${label} is too long (at most ${MAX_INPUT_BYTES / 1024} KiB).`;
    }
  }
}
