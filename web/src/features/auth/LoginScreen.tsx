import { useEffect, useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client';
import { formatMoney } from '../../utils/format';
import { getUserBalance, login, logout, type Balance, type SessionUser } from './api';
import { clearSession, readSession, saveSession } from './session';

/**
 * Placeholder auth screen: a login form, or, once logged in, the user's name,
 * balance and a log-out button. The full client replaces it.
 */
export function LoginScreen() {
  const [user, setUser] = useState<SessionUser | null>(readSession);
  return user ? <LoggedIn user={user} onLoggedOut={() => setUser(null)} /> : <LoginForm onLoggedIn={setUser} />;
}

function LoginForm({ onLoggedIn }: { onLoggedIn: (user: SessionUser) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const answer = await login(String(form.get('user_name') ?? ''), String(form.get('password') ?? ''));
      if ('otp_required' in answer) {
        setError('This account uses security auth, which this page does not support yet.');
        return;
      }
      saveSession(answer);
      onLoggedIn(answer);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="login-form" onSubmit={submit}>
      <label>
        User name
        <input name="user_name" autoComplete="username" required data-testid="login-user-name" />
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          data-testid="login-password"
        />
      </label>
      <button type="submit" disabled={pending} data-testid="login-submit">
        Log in
      </button>
      {error && (
        <p role="alert" className="error" data-testid="error-message">
          {error}
        </p>
      )}
    </form>
  );
}

function LoggedIn({ user, onLoggedOut }: { user: SessionUser; onLoggedOut: () => void }) {
  const [balance, setBalance] = useState<Balance | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true; // ignore an answer that arrives after log-out
    getUserBalance()
      .then((b) => {
        if (current) setBalance(b);
      })
      .catch((e: unknown) => {
        if (current) setError(errorMessage(e));
      });
    return () => {
      current = false;
    };
  }, []);

  async function logOut() {
    // The server is told first, but the local session ends even if it cannot be.
    try {
      await logout(user);
    } catch {
      // Nothing to do: the token expires on the server anyway.
    } finally {
      clearSession();
      onLoggedOut();
    }
  }

  return (
    <section className="logged-in">
      <p data-testid="logged-in-as">Logged in as {user.user_name}</p>
      <p>
        Balance: <span data-testid="balance">{balance ? formatMoney(balance.total_balance) : '…'}</span>
      </p>
      {error && (
        <p role="alert" className="error" data-testid="error-message">
          {error}
        </p>
      )}
      <button type="button" onClick={logOut} data-testid="logout">
        Log out
      </button>
    </section>
  );
}
