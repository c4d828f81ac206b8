import type { FormEvent, ReactNode } from 'react';
import { MESSAGES } from '@zeroid/protocol/messages';
import { config } from './config.ts';
import type { Progress } from './progress.ts';
import { ProgressLine } from './progress-line.tsx';
import { SecretField } from './secret-field.tsx';

/** The verification field's line of help, true to the proving mode. */
const biometricHelp = () =>
  `The same biometric text you registered with, typed or pasted.${config.proving === 'browser' ? ' It never leaves this device.' : ''}`;

interface BiometricFormProps {
  bioInfo: string;
  onBioInfo: (value: string) => void;
  onSubmit: (event: FormEvent) => void;
  pending: boolean;
  progress: Progress | undefined;
  /** What is wrong with the field (empty, too long), until it changes. */
  problem?: string | undefined;
  /** Disabled for another reason than a pending call (the screen's details are not in yet, a lockout). */
  notReady?: boolean;
  /** Secondary actions (a sign-in's Cancel), in a row with "Verify User"; the progress line goes under all of them. */
  children?: ReactNode;
}

/** The id of the biometric field, for a screen that checks it before it calls. */
export const BIOMETRIC_FIELD_ID = 'verify-bio-info';

/**
 * The verification form: the biometric field and "Verify User", disabled while the call is pending,
 * with its progress; shared by the verification screen, the sign-in screen and the phone's sign-in.
 */
export function BiometricForm({
  bioInfo,
  onBioInfo,
  onSubmit,
  pending,
  progress,
  problem,
  notReady = false,
  children,
}: BiometricFormProps) {
  return (
    <form onSubmit={onSubmit} aria-busy={pending} noValidate>
      <SecretField
        id={BIOMETRIC_FIELD_ID}
        label="Biometric Data"
        visibleLabel={false}
        name="bio_info"
        rows={6}
        placeholder={MESSAGES.touchToVerify}
        value={bioInfo}
        onValue={onBioInfo}
        help={biometricHelp()}
        problem={problem}
      />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={pending || notReady}>
          {MESSAGES.verifyUser}
        </button>
        {children}
      </div>
      {pending ? <ProgressLine progress={progress} /> : null}
    </form>
  );
}
