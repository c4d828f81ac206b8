import type { ReactNode } from 'react';
import { SecretTextarea } from './secret-textarea.tsx';

interface SecretFieldProps {
  id: string;
  /** The visible label, or for a field the specification shows without one, its accessible name. */
  label: string;
  visibleLabel?: boolean;
  name: string;
  rows: number;
  value: string;
  onValue: (value: string) => void;
  /** One line under the field saying what belongs in it. */
  help: ReactNode;
  /** What is wrong with it, until it changes. */
  problem?: string | undefined;
  placeholder?: string;
  readOnly?: boolean;
}

/**
 * An ID or biometric field with its line of help under it and, after a failed check, the message for
 * this field alone, tied to it (aria-describedby, aria-invalid) so a screen reader reads both.
 */
export function SecretField({ id, label, visibleLabel = true, help, problem, ...textarea }: SecretFieldProps) {
  const describedBy = problem ? `${id}-problem ${id}-help` : `${id}-help`;
  return (
    <div className="field">
      {visibleLabel ? <label htmlFor={id}>{label}</label> : null}
      <SecretTextarea
        id={id}
        {...(visibleLabel ? {} : { 'aria-label': label })}
        aria-describedby={describedBy}
        aria-invalid={problem ? true : undefined}
        {...textarea}
      />
      <p className="field-help" id={`${id}-help`}>
        {help}
      </p>
      {problem ? (
        <p className="field-problem" id={`${id}-problem`} role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
