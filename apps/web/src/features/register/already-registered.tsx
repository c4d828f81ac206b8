import { Link } from 'react-router';
import { ERASE_MESSAGES, MESSAGES } from '@zeroid/protocol/messages';
import { routes } from '../../shared/paths.ts';

/**
 * A registration answered "DID already generated": the specification's sentence, then what the
 * person can do next. The ID or the biometric is taken; the identity may well be theirs (a second
 * try, another device), so verifying is offered first, and starting over (erase, then register)
 * second. Which of the two is taken is not said: that would tell a guesser more.
 */
export function AlreadyRegistered() {
  return (
    <div className="notice" role="status" data-testid="already-registered">
      <p>
        <strong>{MESSAGES.alreadyRegistered}</strong>
      </p>
      <p>
        An identity with this ID or this biometric exists already. If it is yours, verify with your biometric; to start over, delete it and
        register again.
      </p>
      <div className="next-step">
        <Link className="button primary" to={routes.verify}>
          Verify instead
        </Link>
        <Link className="button secondary" to={routes.erase}>
          {ERASE_MESSAGES.footerLink}
        </Link>
      </div>
    </div>
  );
}
