import { MAX_INPUT_BYTES, normaliseInput, ProtocolInputError } from '@zeroid/protocol';
import { badRequest } from '../problem.ts';

/** Normalises one raw field, naming the field (never its value) when it is malformed, empty or too long. */
export function normaliseField(value: string, field: string): string {
  try {
    return normaliseInput(value);
  } catch (error) {
    if (!(error instanceof ProtocolInputError)) throw error;
    if (error.code === 'MALFORMED_TEXT') {
      throw badRequest('MALFORMED_TEXT', `The field "${field}" is not valid Unicode text (it has a lone surrogate).`);
    }
    if (error.code === 'EMPTY_INPUT') throw badRequest('EMPTY_INPUT', `The field "${field}" is empty.`);
    throw badRequest('INPUT_TOO_LONG', `The field "${field}" is too long (at most ${MAX_INPUT_BYTES / 1024} KiB after normalisation).`);
  }
}
