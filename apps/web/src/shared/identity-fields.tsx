import type { ReactNode } from 'react';
import { MESSAGES } from '@zeroid/protocol/messages';
import { SecretField } from './secret-field.tsx';

/** The two fields, in the order the specification shows them, with its labels and wire names. */
const FIELDS = [
  { field: 'idInfo', label: MESSAGES.enterId, name: 'id_info', rows: 3 },
  { field: 'bioInfo', label: MESSAGES.biometricData, name: 'bio_info', rows: 6 },
] as const;

export type IdentityField = (typeof FIELDS)[number]['field'];
type PerField<T> = Record<IdentityField, T>;

interface IdentityFieldsProps {
  /** Each field's element id (what a screen's field check focuses). */
  ids: PerField<string>;
  values: PerField<string>;
  onValue: (field: IdentityField, value: string) => void;
  /** The line under each field saying what belongs in it. */
  help: PerField<ReactNode>;
  /** What is wrong with each field, until it changes. */
  problems: Partial<PerField<string | undefined>>;
  /** Shown but not editable (a screen asking to confirm what was typed). */
  readOnly?: boolean;
}

/**
 * The ID and biometric fields, labelled as the specification shows them ("Enter ID:", "Biometric
 * Data:") and sent as `id_info` and `bio_info`; shared by the registration and erasure screens, whose
 * forms hold them. Verification asks for the biometric alone (`BiometricForm`).
 */
export function IdentityFields({ ids, values, onValue, help, problems, readOnly }: IdentityFieldsProps) {
  return (
    <>
      {FIELDS.map(({ field, label, name, rows }) => (
        <SecretField
          key={field}
          id={ids[field]}
          label={label}
          name={name}
          rows={rows}
          value={values[field]}
          onValue={(value) => onValue(field, value)}
          readOnly={readOnly}
          help={help[field]}
          problem={problems[field]}
        />
      ))}
    </>
  );
}
