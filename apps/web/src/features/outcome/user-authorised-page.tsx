import { Link, useLocation } from 'react-router';
import { MESSAGES } from '@zeroid/protocol/messages';
import { routes } from '../../shared/paths.ts';
import { ConfirmationCode } from './confirmation-code.tsx';

/**
 * /user-authorised: "Verified" and the specification's welcome, only on the way from a verification
 * that succeeded (this screen or another, whose navigation says so). Opened directly (typed, a
 * bookmark), nothing was verified, and the screen says so instead of pretending.
 */
export function UserAuthorisedPage() {
  // A phone that completed another screen's verification shows that screen's code (decision 035).
  const { verified, confirmationCode } = (useLocation().state ?? {}) as { verified?: unknown; confirmationCode?: string };
  if (verified !== true) {
    return (
      <section className="card">
        <h1>Not verified yet</h1>
        <p className="notice">Nothing has been verified on this screen. Verify with your biometric first.</p>
        <div className="actions">
          <Link className="button primary" to={routes.verify}>
            Go to verification
          </Link>
        </div>
      </section>
    );
  }
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
