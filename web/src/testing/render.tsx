import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App } from '../app/App';
import { refreshSession, type UserInfo } from '../lib/session';

export const demoUser: UserInfo = {
  token: 'tok-demo',
  user_id: 7,
  user_name: 'demo',
  is_change_password: 0,
  parent_id: 2,
  role: 'client',
};

/** Stores a logged-in session the way a log-in does (without the welcome popup). */
export function storeSession(user: UserInfo = demoUser): void {
  localStorage.setItem('usertoken', user.token);
  localStorage.setItem('userinfo', JSON.stringify(user));
  localStorage.setItem('logedIn', 'true');
  localStorage.setItem('parent_id', String(user.parent_id ?? -1));
  refreshSession();
}

/** The whole app at a hash route, with a fresh query cache. */
export function renderApp(path = '/') {
  window.location.hash = path;
  refreshSession();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return { queryClient, ...render(<App queryClient={queryClient} />) };
}
