import { Link, useLocation } from 'react-router';
import { MESSAGES } from '@zeroid/protocol/messages';
import { routes } from '../../shared/paths.ts';
import { ConfirmationCode } from '../../shared/confirmation-code.tsx';

/**
 * /user-authorised: the specification's welcome, whichever way the visitor came (its routes are open
 * to anyone). On the way from a verification that succeeded (this screen or another, whose navigation
 * says so) it is headed "Verified"; opened directly (typed, a bookmark, a reload), nothing was verified
 * in this tab, and a note under the welcome says so rather than claim it.
 */
export function UserAuthorisedPage() {
  // A phone that completed another screen's verification shows that screen's code (decision 035).
  const { verified, confirmationCode } = (useLocation().state ?? {}) as { verified?: unknown; confirmationCode?: string };
  if (verified !== true) {
    return (
      <section className="card">
        <h1>Welcome</h1>
        <p className="welcome-text">{MESSAGES.authorised}</p>
        <p className="note" data-testid="not-verified-note">
          Nobody has been verified in this tab: this page was opened directly. To prove it is you, verify with your biometric.
        </p>
        <div className="actions">
          <Link className="button primary" to={routes.verify}>
            Go to verification
          </Link>
          <Link className="button secondary" to={routes.home}>
            Back to the start
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
