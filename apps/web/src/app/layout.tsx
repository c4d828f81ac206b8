import { Link, Outlet } from 'react-router';
import { routes } from '../shared/paths.ts';

/** The frame every screen shares: a header with the brand, the screen, a short footer. */
export function Layout() {
  return (
    <>
      <header className="topbar">
        <Link to={routes.home} className="brand" aria-label="ZeroID home">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          ZeroID
        </Link>
      </header>
      <main className="shell">
        <Outlet />
      </main>
      <footer className="footer">Your ID and biometric stay on this device. The server sees only zero-knowledge proofs.</footer>
    </>
  );
}
