import { Link } from 'react-router';
import { MESSAGES } from '@zeroid/protocol/messages';
import { routes, tryAgainState } from '../../shared/paths.ts';

/**
 * /invalid-did: the specification's sentence, word for word, then what it means for the person who
 * got here with a biometric: it did not match, how it must match, and the two ways on.
 */
export function InvalidDidPage() {
  return (
    <section className="card">
      <h1>Not verified</h1>
      <p className="notice">{MESSAGES.invalidDid}</p>
      <p className="outcome-help" data-testid="invalid-did-help">
        <strong>Not recognised.</strong> The biometric must be exactly the text you registered with: letters, case and punctuation count
        (extra spaces do not). Check it and try again, or register first if you have not yet.
      </p>
      <div className="actions">
        <Link className="button primary" to={routes.verify} state={tryAgainState}>
          Try again
        </Link>
        <Link className="button secondary" to={routes.register}>
          {MESSAGES.register}
        </Link>
      </div>
    </section>
  );
}
