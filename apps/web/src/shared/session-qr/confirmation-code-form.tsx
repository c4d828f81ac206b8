import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '../error-alert.tsx';

/**
 * The code the phone showed when it finished, typed by the person at this screen (decision 035):
 * only then does this screen move on, so a phone the person does not hold (someone who saw the QR
 * code) cannot complete their sign-in or verification. `onConfirm` throws with a message for a
 * wrong code.
 */
export function ConfirmationCodeForm({ onConfirm }: { onConfirm: (code: string) => Promise<void> }) {
  const [code, setCode] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    try {
      await onConfirm(code);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Please try again.');
      setCode('');
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="code-entry" onSubmit={(event) => void submit(event)} aria-busy={pending}>
      <h2 className="step">
        <span className="step-mark" aria-hidden="true">
          ✓
        </span>
        Your phone verified you
      </h2>
      <label htmlFor="confirmation-code">Your phone shows a code. Type it here to continue on this screen:</label>
      <p className="field-help" id="confirmation-code-help">
        Six digits. This makes sure the phone that verified is yours, not someone&apos;s who saw this screen.
      </p>
      <input
        id="confirmation-code"
        name="confirmation-code"
        className="code-input"
        inputMode="numeric"
        autoComplete="one-time-code"
        aria-describedby="confirmation-code-help"
        pattern="[0-9]{6}"
        maxLength={6}
        required
        placeholder="000000"
        value={code}
        onChange={(event) => setCode(event.target.value.replace(/[^0-9]/g, ''))}
      />
      <button type="submit" className="primary" disabled={pending || code.length !== 6}>
        Continue
      </button>
      <ErrorAlert message={error} />
    </form>
  );
}
