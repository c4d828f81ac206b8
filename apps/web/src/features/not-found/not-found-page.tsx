import { useEffect } from 'react';
import { Link, useRouteError } from 'react-router';
import { MESSAGES } from '@zeroid/protocol/messages';
import { routes } from '../../shared/paths.ts';

export function NotFoundPage() {
  return (
    <section className="card">
      <h1>Page not found</h1>
      <p>There is no page at this address.</p>
      <Link to={routes.home}>Go to the home page</Link>
    </section>
  );
}

/** A route that failed to render or load: logged as the specification says, with a way home. The router frames it. */
export function RouteErrorPage() {
  const error = useRouteError();
  useEffect(() => {
    console.warn(MESSAGES.navigationError);
  }, [error]);
  return (
    <section className="card">
      <h1>Something went wrong</h1>
      <p>This page could not be shown.</p>
      <Link to={routes.home}>Go to the home page</Link>
    </section>
  );
}
