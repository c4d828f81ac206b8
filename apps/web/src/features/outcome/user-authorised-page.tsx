import { Link, useLocation } from 'react-router';
import { MESSAGES } from '@zeroid/protocol/messages';
import { routes } from '../../shared/paths.ts';
import { ConfirmationCode } from './confirmation-code.tsx';

export function UserAuthorisedPage() {
  // A phone that completed another screen's verification shows that screen's code (decision 035).
  const { confirmationCode } = (useLocation().state ?? {}) as { confirmationCode?: string };
  return (
    <section className="card">
      <h1>Verified</h1>
      <p className="success-text">{MESSAGES.authorised}</p>
      {confirmationCode ? (
        <ConfirmationCode code={confirmationCode}>To finish on the other screen, type this code there:</ConfirmationCode>
      ) : null}
      <Link to={routes.home}>Back to the start</Link>
    </section>
  );
}
