import type { FormEvent, ReactNode } from 'react';
import { MESSAGES } from '@zeroid/protocol/messages';
import type { Progress } from './progress.ts';
import { ProgressLine } from './progress-line.tsx';
import { SecretTextarea } from './secret-textarea.tsx';

interface BiometricFormProps {
  bioInfo: string;
  onBioInfo: (value: string) => void;
  onSubmit: (event: FormEvent) => void;
  pending: boolean;
  progress: Progress | undefined;
  /** Disabled for another reason than a pending call (e.g. the screen's details are not in yet). */
  notReady?: boolean;
  /** Buttons after "Verify User", such as a sign-in's Cancel. */
  children?: ReactNode;
}

/**
 * The verification form: the biometric field and "Verify User", disabled while the call is pending,
 * with its progress; shared by the verification screen, the sign-in screen and the phone's sign-in.
 */
export function BiometricForm({ bioInfo, onBioInfo, onSubmit, pending, progress, notReady = false, children }: BiometricFormProps) {
  return (
    <form onSubmit={onSubmit} aria-busy={pending}>
      <SecretTextarea
        aria-label="Biometric Data"
        name="bio_info"
        rows={6}
        placeholder={MESSAGES.touchToVerify}
        value={bioInfo}
        onValue={onBioInfo}
      />
      <button type="submit" className="primary" disabled={pending || notReady}>
        {MESSAGES.verifyUser}
      </button>
      {children}
      {pending ? <ProgressLine progress={progress} /> : null}
    </form>
  );
}
