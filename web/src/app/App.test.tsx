import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubServer } from '../testing/fake-server';
import { App } from './App';

const siteSetting = { 'GET /api/globalSetting/getGlobalSetting': { data: { site_title: 'Backlay' } } };

const demoUser = {
  token: 'tok-demo',
  user_id: 7,
  user_name: 'demo',
  is_change_password: 0,
  parent_id: 1,
  role: 'user',
};

async function logIn(userName: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByTestId('login-user-name'), userName);
  await user.type(screen.getByTestId('login-password'), password);
  await user.click(screen.getByTestId('login-submit'));
  return user;
}

describe('placeholder login page', () => {
  it("shows the site title and the server's message when login is refused", async () => {
    stubServer({
      ...siteSetting,
      'POST /api/user/login': { httpStatus: 400, message: 'Wrong user name or password' },
    });
    render(<App />);

    expect(await screen.findByText('Backlay')).toBeInTheDocument();
    await logIn('demo', 'nope');

    expect(await screen.findByTestId('error-message')).toHaveTextContent('Wrong user name or password');
    expect(localStorage.getItem('usertoken')).toBeNull();
  });

  it('logs in, shows the balance with 2 decimals, and logs out', async () => {
    const calls = stubServer({
      ...siteSetting,
      'POST /api/user/login': { data: demoUser },
      'GET /api/user/getUserBalance': { data: { total_balance: 1500, liability: -20.5, available: 1479.5 } },
      'POST /api/user/logout': { data: null },
    });
    render(<App />);

    const user = await logIn('demo', 'Demo@1234');

    expect(await screen.findByText('Logged in as demo')).toBeInTheDocument();
    expect(await screen.findByText('1500.00')).toHaveAttribute('data-testid', 'balance');
    expect(localStorage.getItem('usertoken')).toBe('tok-demo');
    expect(localStorage.getItem('logedIn')).toBe('true');
    expect(JSON.parse(localStorage.getItem('userinfo')!)).toEqual(demoUser);
    const balanceCall = calls.find((c) => c.path === '/api/user/getUserBalance')!;
    expect(balanceCall.headers.get('Authorization')).toBe('Bearer tok-demo');

    await user.click(screen.getByTestId('logout'));

    expect(await screen.findByTestId('login-submit')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/user/logout')?.body).toEqual({ user_id: 7, token: 'tok-demo' });
    expect(localStorage.getItem('usertoken')).toBeNull();
    expect(localStorage.getItem('userinfo')).toBeNull();
    expect(localStorage.getItem('logedIn')).toBeNull();
  });
});
