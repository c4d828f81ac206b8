import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { MESSAGES } from '@zeroid/protocol/messages';
import { moveOnServer, prepareRegistrationProver, register, type RegisterOutcome } from './register.ts';
import { config } from '../../shared/config.ts';
import { CopyButton } from '../../shared/copy-button.tsx';
import { ErrorAlert } from '../../shared/error-alert.tsx';
import { ProgressLine } from '../../shared/progress-line.tsx';
import { routes } from '../../shared/paths.ts';
import { IdentityFields } from '../../shared/identity-fields.tsx';
import { useFieldProblems } from '../../shared/use-field-problems.ts';
import { usePendingCall } from '../../shared/use-pending-call.ts';
import { AlreadyRegistered } from './already-registered.tsx';
import { useCredentialNotice } from './use-credential-notice.ts';

const FIELDS = {
  idInfo: { label: 'The ID', id: 'id-info' },
  bioInfo: { label: 'The biometric data', id: 'bio-info' },
};

export function RegisterPage() {
  const [idInfo, setIdInfo] = useState('');
  const [bioInfo, setBioInfo] = useState('');
  const { pending, progress, error, retryIn, run } = usePendingCall();
  const { problems, check, clear } = useFieldProblems(FIELDS);
  const [outcome, setOutcome] = useState<RegisterOutcome>();
  const onDevice = config.proving === 'browser';
  const credential = useCredentialNotice(idInfo);

  // The registration proof's circuit and key load while the ID and biometric are typed (decision 043).
  useEffect(() => prepareRegistrationProver(), []);

  async function submit(event: FormEvent, how: typeof register = register) {
    event.preventDefault();
    setOutcome(undefined);
    // Empty or too long: said at once, under the field, before anything is sent or started.
    if (!check({ idInfo, bioInfo })) return;
    // A credential this server would refuse: the reason is already under the field; nothing starts.
    if (credential.problem) return;
    const done = await run((onProgress) => how({ idInfo, bioInfo }, onProgress), 'Registration failed. Please try again.');
    if (!done) return;
    setOutcome(done.value);
    // Registered: nothing typed stays on the screen. Already registered, or a move to make on the
    // server: left as typed.
    if ('did' in done.value) {
      setIdInfo('');
      setBioInfo('');
    }
  }

  return (
    <section className="card">
      <h1>{MESSAGES.registration}</h1>
      <form onSubmit={(event) => void submit(event)} aria-busy={pending} noValidate>
        <IdentityFields
          ids={{ idInfo: FIELDS.idInfo.id, bioInfo: FIELDS.bioInfo.id }}
          values={{ idInfo, bioInfo }}
          onValue={(field, value) => {
            (field === 'idInfo' ? setIdInfo : setBioInfo)(value);
            clear(field);
          }}
          help={{
            idInfo:
              credential.description ??
              `Any text that identifies you, such as a membership or document number, or the credential your issuer gave you. One identity per ID.${onDevice ? ' Only a one-way tag of it leaves this device.' : ''}`,
            bioInfo: `The text your biometric reader gives (a fingerprint template, say). You will verify with this text alone, so keep it exact.${onDevice ? ' It never leaves this device.' : ''}`,
          }}
          problems={{ idInfo: problems.idInfo ?? credential.problem, bioInfo: problems.bioInfo }}
        />
        <button type="submit" className="primary" disabled={pending || retryIn > 0}>
          {MESSAGES.register}
        </button>
        {pending ? <ProgressLine progress={progress} /> : null}
      </form>
      <ErrorAlert message={error} retryIn={retryIn} />
      {outcome?.alreadyRegistered ? <AlreadyRegistered /> : null}
      {outcome && 'moveRefused' in outcome ? (
        <div className="notice" role="status">
          <p>{outcome.moveRefused}</p>
          <button type="button" disabled={pending} onClick={(event) => void submit(event, moveOnServer)}>
            Move on the server
          </button>
        </div>
      ) : null}
      {outcome && 'did' in outcome ? (
        <div className="success" role="status">
          <p>Registered. Your decentralised identifier (DID) is:</p>
          <p className="did">
            <code>{outcome.did}</code>
          </p>
          {outcome.replacedDid ? (
            <p className="replaced-did">
              It replaces the identity you registered before, whose DID is now deactivated: <code>{outcome.replacedDid}</code>
            </p>
          ) : null}
          <p className="did-actions">
            <CopyButton text={outcome.did} label="Copy DID" />
            <Link to={routes.didQr(outcome.did)}>Show my DID as a QR code</Link>
          </p>
          <p className="next-step">
            Next: prove it is you with your biometric alone.{' '}
            <Link className="button primary" to={routes.verify}>
              Verify now
            </Link>
          </p>
        </div>
      ) : null}
    </section>
  );
}
