import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ERASE_MESSAGES } from '@zeroid/protocol/messages';
import { erase } from './erase.ts';
import { ErrorAlert } from '../../shared/error-alert.tsx';
import { ProgressLine } from '../../shared/progress-line.tsx';
import { routes } from '../../shared/paths.ts';
import { IdentityFields } from '../../shared/identity-fields.tsx';
import { useFieldProblems } from '../../shared/use-field-problems.ts';
import { usePendingCall } from '../../shared/use-pending-call.ts';

type Step = 'form' | 'confirm' | 'erased';

/**
 * "Delete my identity" (decision 022): the ID and biometric, an explicit confirmation (erasure cannot
 * be undone), then the erasure, derived and signed on this device. The inputs stay after a failure.
 */
export function ErasePage() {
  const [idInfo, setIdInfo] = useState('');
  const [bioInfo, setBioInfo] = useState('');
  const [step, setStep] = useState<Step>('form');
  const { pending, progress, error, setError, retryIn, run } = usePendingCall();
  const { problems, check, clear } = useFieldProblems({
    idInfo: { label: 'The ID', id: 'erase-id-info' },
    bioInfo: { label: 'The biometric data', id: 'erase-bio-info' },
  });

  function askToConfirm(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    if (check({ idInfo, bioInfo })) setStep('confirm');
  }

  async function confirm() {
    const done = await run(async (onProgress) => {
      // Not erased (the biometric or the ID did not match): the same screen, with this message.
      if (!(await erase({ idInfo, bioInfo }, onProgress))) throw new Error(ERASE_MESSAGES.failed);
    }, 'Deletion failed. Please try again.');
    if (!done) return setStep('form');
    setIdInfo('');
    setBioInfo('');
    setStep('erased');
  }

  if (step === 'erased') {
    return (
      <section className="card">
        <h1>{ERASE_MESSAGES.heading}</h1>
        <p className="success" role="status">
          {ERASE_MESSAGES.erased}
        </p>
        <Link to={routes.home}>Back to the start</Link>
      </section>
    );
  }

  return (
    <section className="card">
      <h1>{ERASE_MESSAGES.heading}</h1>
      <p>{ERASE_MESSAGES.explanation}</p>
      <form onSubmit={askToConfirm} aria-busy={pending}>
        <IdentityFields
          ids={{ idInfo: 'erase-id-info', bioInfo: 'erase-bio-info' }}
          values={{ idInfo, bioInfo }}
          onValue={(field, value) => {
            (field === 'idInfo' ? setIdInfo : setBioInfo)(value);
            clear(field);
          }}
          help={{
            idInfo: 'The ID you registered with.',
            bioInfo: 'The biometric text you registered with: both must match for the identity to be deleted.',
          }}
          problems={problems}
          readOnly={step === 'confirm'}
        />
        {step === 'form' ? (
          <button type="submit" className="danger" disabled={pending || retryIn > 0}>
            {ERASE_MESSAGES.erase}
          </button>
        ) : null}
      </form>
      {step === 'confirm' ? (
        <div className="notice danger-zone" role="alertdialog" aria-labelledby="erase-confirm-question">
          <p id="erase-confirm-question">{ERASE_MESSAGES.confirmQuestion}</p>
          <div className="actions">
            <button type="button" className="danger" disabled={pending} onClick={() => void confirm()}>
              {ERASE_MESSAGES.confirm}
            </button>
            <button type="button" className="secondary" disabled={pending} onClick={() => setStep('form')}>
              {ERASE_MESSAGES.cancel}
            </button>
          </div>
          {pending ? <ProgressLine progress={progress} /> : null}
        </div>
      ) : null}
      <ErrorAlert message={error} retryIn={retryIn} />
    </section>
  );
}
