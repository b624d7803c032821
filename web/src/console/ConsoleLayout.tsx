import { Suspense, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { Spinner } from '../components/QueryState';
import { useBalance } from '../hooks/useBalance';
import { formatMoney } from '../lib/format';
import { useSession } from '../lib/session';
import { signOut } from '../lib/sign-out';
import { consoleRole, roleLabel, type ConsoleSection } from './nav';
import './console.css';

/** The console's frame: who is logged in with their chips on top, the sections on the left. */
export function ConsoleLayout({ sections }: { sections: readonly ConsoleSection[] }) {
  const user = useSession();
  const role = consoleRole(user);
  const location = useLocation();
  const balance = useBalance(Boolean(user));
  const [navOpen, setNavOpen] = useState(false);
  if (!user || !role) return null;
  const b = balance.data;

  return (
    <div className="console-layout" data-testid="console-layout">
      <a className="skip-link" href="#console-main" onClick={(event) => {
        // A hash link would change the route: move the focus instead.
        event.preventDefault();
        document.getElementById('console-main')?.focus();
      }}>
        Skip to content
      </a>
      <header className="console-topbar">
        <button
          type="button"
          className="console-nav-toggle"
          aria-expanded={navOpen}
          aria-controls="console-nav"
          onClick={() => setNavOpen((open) => !open)}
        >
          Menu
        </button>
        <Link to="/console" className="console-brand">Console</Link>
        <div className="console-who" data-testid="console-who">
          <b data-testid="console-user-name">{user.user_name}</b> <span className="console-role">{roleLabel(role)}</span>
        </div>
        <div className="console-balance">
          Balance: <b data-testid="console-balance">{b ? formatMoney(b.total_balance) : '…'}</b>
        </div>
        <Link to="/" className="console-top-link" data-testid="console-to-app">Betting app</Link>
        <button type="button" className="console-top-link" onClick={() => void signOut(user)} data-testid="console-logout">
          Log out
        </button>
      </header>
      <div className="console-body">
        <nav id="console-nav" className={`console-nav${navOpen ? ' open' : ''}`} aria-label="Console">
          <ul>
            {sections.map((section) => (
              <li key={section.path}>
                <NavLink to={`/console/${section.path}`} onClick={() => setNavOpen(false)} data-testid={`console-nav-${section.path}`}>
                  {section.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="console-main" className="console-content" tabIndex={-1} data-testid="console-content">
          <ErrorBoundary resetKey={location.pathname}>
            <Suspense fallback={<Spinner />}>
              <Outlet />
            </Suspense>
          </ErrorBoundary>
        </main>
      </div>
    </div>
  );
}
