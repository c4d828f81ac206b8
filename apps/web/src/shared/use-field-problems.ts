import { useState } from 'react';
import { fieldProblem } from './field-problem.ts';

/**
 * The per-field messages of a form of ID and biometric fields. `check` finds every field's problem
 * at once (so an empty form names both fields), before anything is sent, and puts the focus on the
 * first field in trouble; `clear` drops one field's message, called as soon as that field changes.
 */
export function useFieldProblems<Field extends string>(fields: Record<Field, { label: string; id: string }>) {
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});

  function check(values: Record<Field, string>): boolean {
    const found: Partial<Record<Field, string>> = {};
    for (const field of Object.keys(fields) as Field[]) {
      const problem = fieldProblem(values[field], fields[field].label);
      if (problem) found[field] = problem;
    }
    setProblems(found);
    const first = (Object.keys(fields) as Field[]).find((field) => found[field]);
    if (first) document.getElementById(fields[first].id)?.focus();
    return first === undefined;
  }

  function clear(field: Field) {
    setProblems((current) => (current[field] ? { ...current, [field]: undefined } : current));
  }

  return { problems, check, clear };
}
