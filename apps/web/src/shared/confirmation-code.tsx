import type { ReactNode } from 'react';

/**
 * The code this phone got for completing another screen's session (decision 035), to be typed there
 * by the same person, and never told to anyone else: whoever types it finishes that screen.
 */
export function ConfirmationCode({ code, children }: { code: string; children: ReactNode }) {
  return (
    <div className="confirmation-code" role="status">
      <p>{children}</p>
      <p className="code" data-testid="confirmation-code" aria-label={code.split('').join(' ')}>
        <strong>{code}</strong>
      </p>
      <p className="notice">
        Only type it on the screen in front of you. Never tell it to anyone, and never type it on a screen you did not start.
      </p>
    </div>
  );
}
