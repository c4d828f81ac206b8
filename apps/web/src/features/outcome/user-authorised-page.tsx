import { Link, useLocation } from 'react-router';
import { MESSAGES } from '@zeroid/protocol/messages';
import { routes } from '../../shared/paths.ts';

/**
 * /user-authorised: "Verified" and the specification's welcome, only on the way from a verification
 * that succeeded (this screen or another, whose navigation says so). Opened directly (typed, a
 * bookmark), nothing was verified, and the screen says so instead of pretending.
 */
export function UserAuthorisedPage() {
  const verified = (useLocation().state as { verified?: unknown } | null)?.verified === true;
  if (!verified) {
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
      <Link to={routes.home}>Back to the start</Link>
    </section>
  );
}
