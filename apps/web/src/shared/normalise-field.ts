import { normaliseInput } from '@zeroid/protocol';
import { fieldProblem } from './field-problem.ts';

/**
 * Normalises what the person typed, with a message that names the field (never its content). The
 * screens check the same rule before they call (`fieldProblem`); this is for any caller that did not.
 */
export function normaliseField(value: string, label: string): string {
  const problem = fieldProblem(value, label);
  if (problem) throw new Error(problem);
  return normaliseInput(value);
}
