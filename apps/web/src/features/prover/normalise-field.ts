import { normaliseInput, ProtocolInputError } from '@zeroid/protocol';

/** Normalises what the person typed, with a message that names the field (never its content). */
export function normaliseField(value: string, label: string): string {
  try {
    return normaliseInput(value);
  } catch (error) {
    if (error instanceof ProtocolInputError && error.code === 'MALFORMED_TEXT')
      throw new Error(`${label} contains a broken character. Please type it again rather than paste it.`);
    if (error instanceof ProtocolInputError && error.code === 'EMPTY_INPUT')
      throw new Error(`${label} is empty. Please enter it and try again.`);
    if (error instanceof ProtocolInputError) throw new Error(`${label} is too long (at most 16 KiB).`);
    throw error;
  }
}
