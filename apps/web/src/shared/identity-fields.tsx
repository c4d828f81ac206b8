import type { ReactNode } from 'react';
import { MESSAGES } from '@zeroid/protocol/messages';
import { SecretField } from './secret-field.tsx';

/** One of the two fields: its element id, value, what it says under it and what is wrong with it. */
interface IdentityField {
  id: string;
  value: string;
  onValue: (value: string) => void;
  help: ReactNode;
  problem: string | undefined;
}

interface IdentityFieldsProps {
  idInfo: IdentityField;
  bioInfo: IdentityField;
  /** Shown but not editable (a screen asking to confirm what was typed). */
  readOnly?: boolean;
}

/**
 * The ID and biometric fields, labelled as the specification shows them ("Enter ID:", "Biometric
 * Data:") and sent as `id_info` and `bio_info`; shared by the registration and erasure screens, whose
 * forms hold them. Verification asks for the biometric alone (`BiometricForm`).
 */
export function IdentityFields({ idInfo, bioInfo, readOnly }: IdentityFieldsProps) {
  return (
    <>
      <SecretField
        id={idInfo.id}
        label={MESSAGES.enterId}
        name="id_info"
        rows={3}
        value={idInfo.value}
        onValue={idInfo.onValue}
        readOnly={readOnly}
        help={idInfo.help}
        problem={idInfo.problem}
      />
      <SecretField
        id={bioInfo.id}
        label={MESSAGES.biometricData}
        name="bio_info"
        rows={6}
        value={bioInfo.value}
        onValue={bioInfo.onValue}
        readOnly={readOnly}
        help={bioInfo.help}
        problem={bioInfo.problem}
      />
    </>
  );
}
