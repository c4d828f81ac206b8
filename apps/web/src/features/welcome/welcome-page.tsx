import { Link } from 'react-router';
import { ERASE_MESSAGES, MESSAGES } from '@zeroid/protocol/messages';
import { config } from '../../shared/config.ts';
import { routes } from '../../shared/paths.ts';
import { useSafeNavigate } from '../../shared/use-safe-navigate.ts';

export function WelcomePage() {
  const navigate = useSafeNavigate();
  return (
    <section className="card welcome">
      <h1>{MESSAGES.welcomeHeading}</h1>
      <p className="tagline">{MESSAGES.tagline}</p>
      <p className="lead">
        {config.proving === 'browser'
          ? 'Register once. Prove it is you with your biometric alone: it never leaves this device.'
          : 'Register once. Prove it is you with your biometric alone.'}
      </p>
      <div className="actions">
        <button type="button" className="primary" onClick={() => navigate(routes.register)}>
          {MESSAGES.registration}
        </button>
        <button type="button" className="secondary" onClick={() => navigate(routes.verify)}>
          {MESSAGES.verification}
        </button>
      </div>
      {/* Decision 022: the way out, below the specification's screen. */}
      <p className="welcome-footer">
        <Link to={routes.erase}>{ERASE_MESSAGES.footerLink}</Link>
      </p>
    </section>
  );
}
