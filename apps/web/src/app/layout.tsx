import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router';
import { config } from '../shared/config.ts';
import { routes } from '../shared/paths.ts';

/** What the footer promises, true to the proving mode in use. */
const privacyNote = () =>
  config.proving === 'browser'
    ? 'Your ID and biometric stay on this device: the server sees only blinded, derived values and zero-knowledge proofs.'
    : 'Server proving is on: your ID and biometric are sent to the server, which derives your identity from them and discards them.';

/**
 * The frame every screen shares: a header with the brand, the screen, a short footer. Given children
 * (the loading and error screens, which render outside the route tree) it frames those instead.
 */
export function Layout({ children }: { children?: ReactNode }) {
  return (
    <>
      <header className="topbar">
        <Link to={routes.home} className="brand" aria-label="ZeroID home">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          ZeroID
        </Link>
      </header>
      <main className="shell">{children ?? <Outlet />}</main>
      <footer className="footer">{privacyNote()}</footer>
    </>
  );
}
