import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { MESSAGES } from '@zeroid/protocol/messages';
import { register, type RegisterOutcome } from '../prover/submit-registration.ts';
import { ErrorAlert } from '../../shared/error-alert.tsx';
import { ProgressLine } from '../../shared/progress-line.tsx';
import { routes } from '../../shared/paths.ts';
import { SecretTextarea } from '../../shared/secret-textarea.tsx';
import { usePendingCall } from '../../shared/use-pending-call.ts';

export function RegisterPage() {
  const [idInfo, setIdInfo] = useState('');
  const [bioInfo, setBioInfo] = useState('');
  const { pending, progress, error, run } = usePendingCall();
  const [outcome, setOutcome] = useState<RegisterOutcome>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async (onProgress) => {
      setOutcome(undefined);
      setOutcome(await register({ idInfo, bioInfo }, onProgress));
    }, 'Registration failed. Please try again.');
  }

  return (
    <section className="card">
      <h1>{MESSAGES.registration}</h1>
      <form onSubmit={(event) => void submit(event)} aria-busy={pending}>
        <label htmlFor="id-info">{MESSAGES.enterId}</label>
        <SecretTextarea id="id-info" name="id_info" rows={3} value={idInfo} onValue={setIdInfo} />
        <label htmlFor="bio-info">{MESSAGES.biometricData}</label>
        <SecretTextarea id="bio-info" name="bio_info" rows={6} value={bioInfo} onValue={setBioInfo} />
        <button type="submit" className="primary" disabled={pending}>
          {MESSAGES.register}
        </button>
        {pending ? <ProgressLine progress={progress} /> : null}
      </form>
      <ErrorAlert message={error} />
      {outcome?.alreadyRegistered ? (
        <p className="notice" role="status">
          {MESSAGES.alreadyRegistered}
        </p>
      ) : null}
      {outcome && !outcome.alreadyRegistered ? (
        <div className="success" role="status">
          <p>Registered. Your decentralised identifier (DID) is:</p>
          <p className="did">
            <code>{outcome.did}</code>
          </p>
          <Link to={routes.didQr(outcome.did)}>Show my DID as a QR code</Link>
        </div>
      ) : null}
    </section>
  );
}
