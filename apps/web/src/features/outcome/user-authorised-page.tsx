import { Link } from 'react-router';
import { MESSAGES } from '@zeroid/protocol/messages';
import { routes } from '../../shared/paths.ts';

export function UserAuthorisedPage() {
  return (
    <section className="card">
      <h1>Verified</h1>
      <p className="success-text">{MESSAGES.authorised}</p>
      <Link to={routes.home}>Back to the start</Link>
    </section>
  );
}
