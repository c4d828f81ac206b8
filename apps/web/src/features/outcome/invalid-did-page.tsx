import { Link } from 'react-router';
import { MESSAGES } from '@zeroid/protocol/messages';
import { routes } from '../../shared/paths.ts';

export function InvalidDidPage() {
  return (
    <section className="card">
      <h1>Not verified</h1>
      <p className="notice">{MESSAGES.invalidDid}</p>
      <div className="actions">
        <Link className="button primary" to={routes.register}>
          {MESSAGES.register}
        </Link>
        <Link className="button secondary" to={routes.verify}>
          Try again
        </Link>
      </div>
    </section>
  );
}
