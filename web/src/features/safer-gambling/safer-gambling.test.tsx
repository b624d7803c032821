// The safer-gambling page against docs/api.md's "Safer gambling" shapes with fetch stubbed:
// limits set lower (at once) and higher (waiting, then confirmed), a field the server refuses,
// the reality check's interval, and a time-out that logs the bettor out for its length.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { resources, setLanguage } from '../../i18n';
import { catalogueTexts } from '../../testing/catalogue';
import { EMPTY_CATALOGUE, stubServer, type Answers, type Call } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';
import type { LimitsAnswer } from './api';

/** 2026-11-30T09:00:00Z: 14:30 in India. */
const EFFECTIVE_AT = '2026-11-30T09:00:00.000Z';

const limits = (over: Partial<LimitsAnswer> = {}): LimitsAnswer => ({
  limits: [
    { kind: 'loss', period: 'day', value: 2000 },
    { kind: 'stake', period: null, value: 500 },
  ],
  pending: [],
  left: [{ kind: 'loss', period: 'day', value: 1240 }],
  operator_max_stake: null,
  ...over,
});

function setUp(answers: Answers) {
  const calls = stubServer({ ...EMPTY_CATALOGUE, 'GET /api/user/limits': { data: limits() }, ...answers });
  storeSession();
  renderApp('/safer-gambling');
  return calls;
}

const row = (id: string) => screen.getByTestId(`limit-row-${id}`);
/** The bodies POSTed to `path`. */
const sent = (calls: Call[], path: string) => calls.filter((c) => c.method === 'POST' && c.path === `/api/${path}`).map((c) => c.body);

describe('the bettor’s limits', () => {
  it('lists every limit with the one in force and what is left; a lower one applies at once', async () => {
    const calls = setUp({
      'POST /api/user/limits': {
        message: 'Your daily loss limit is now ₹1,500.00.',
        data: limits({ limits: [{ kind: 'loss', period: 'day', value: 1500 }, { kind: 'stake', period: null, value: 500 }], left: [{ kind: 'loss', period: 'day', value: 740 }] }),
      },
    });
    const user = userEvent.setup();
    const table = await screen.findByTestId('limits-table');
    expect(within(table).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual([
      'Deposit per day', 'Deposit per week', 'Deposit per month', 'Loss per day', 'Loss per week', 'Loss per month', 'Stake per bet', 'Session length',
    ]);
    expect(within(row('loss_day')).getByTestId('limit-in-force')).toHaveTextContent('₹2,000.00');
    expect(within(row('stake')).getByTestId('limit-in-force')).toHaveTextContent('₹500.00');
    expect(within(row('deposit_week')).getByTestId('limit-in-force')).toHaveTextContent('No limit');
    expect(screen.getByTestId('limit-left-loss')).toHaveTextContent('You can lose ₹1,240.00 more today.');

    await user.type(screen.getByTestId('limit-value'), '1500');
    await user.click(screen.getByTestId('limit-set'));
    expect(await screen.findByTestId('limits-message')).toHaveTextContent('Your daily loss limit is now ₹1,500.00.');
    expect(within(row('loss_day')).getByTestId('limit-in-force')).toHaveTextContent('₹1,500.00');
    expect(screen.getByTestId('limit-left-loss')).toHaveTextContent('You can lose ₹740.00 more today.');
    expect(sent(calls, 'user/limits')).toEqual([{ kind: 'loss', period: 'day', value: 1500 }]);
    expect(screen.getByTestId('limit-value')).toHaveValue('');
  });

  it('shows a higher one waiting with the time it can be confirmed from, and no Confirm before then', async () => {
    const waiting = { kind: 'loss', period: 'week', value: 5000, effective_at: EFFECTIVE_AT } as const;
    const calls = setUp({
      'GET /api/user/limits': { data: limits({ limits: [{ kind: 'loss', period: 'week', value: 3000 }] }) },
      'POST /api/user/limits': {
        message: 'Your weekly loss limit of ₹5,000.00 can be confirmed from 30/11/2026 14:30:00.',
        data: limits({ limits: [{ kind: 'loss', period: 'week', value: 3000 }], pending: [{ ...waiting, confirmable: false }] }),
      },
    });
    const user = userEvent.setup();
    await screen.findByTestId('limits-table');
    await user.selectOptions(screen.getByTestId('limit-slot'), 'loss_week');
    await user.type(screen.getByTestId('limit-value'), '5000');
    await user.click(screen.getByTestId('limit-set'));

    expect(await screen.findByTestId('limits-message')).toHaveTextContent('can be confirmed from 30/11/2026 14:30:00');
    const pending = within(row('loss_week')).getByTestId('limit-waiting');
    expect(within(pending).getByTestId('pending-text')).toHaveTextContent('₹5,000.00 from 30/11/2026 14:30:00');
    expect(pending).toHaveTextContent('It waits 24 hours, then applies only once you confirm it.');
    expect(within(row('loss_week')).getByTestId('limit-in-force')).toHaveTextContent('₹3,000.00');
    // Not confirmable yet: only Cancel.
    expect(within(pending).queryByTestId('limit-confirm')).toBeNull();
    expect(within(pending).getByTestId('limit-cancel')).toBeInTheDocument();
    expect(sent(calls, 'user/limits')).toEqual([{ kind: 'loss', period: 'week', value: 5000 }]);
  });

  it('confirms a waiting change once it is confirmable, and cancels another', async () => {
    const calls = setUp({
      'GET /api/user/limits': {
        data: limits({
          limits: [{ kind: 'loss', period: 'week', value: 3000 }, { kind: 'session', period: null, value: 90 }],
          pending: [
            { kind: 'loss', period: 'week', value: 5000, effective_at: EFFECTIVE_AT, confirmable: true },
            { kind: 'session', period: null, value: null, effective_at: EFFECTIVE_AT, confirmable: true },
          ],
          left: [],
        }),
      },
      'POST /api/user/confirmLimit': (call) =>
        (call.body as { accept: boolean }).accept
          ? {
              message: 'Your weekly loss limit is now ₹5,000.00.',
              data: limits({
                limits: [{ kind: 'loss', period: 'week', value: 5000 }, { kind: 'session', period: null, value: 90 }],
                pending: [{ kind: 'session', period: null, value: null, effective_at: EFFECTIVE_AT, confirmable: true }],
                left: [],
              }),
            }
          : { message: 'The change was dropped.', data: limits({ limits: [{ kind: 'loss', period: 'week', value: 5000 }, { kind: 'session', period: null, value: 90 }], left: [] }) },
    });
    const user = userEvent.setup();
    await screen.findByTestId('limits-table');
    expect(within(row('session')).getByTestId('limit-in-force')).toHaveTextContent('1 h 30 min');
    expect(within(row('session')).getByTestId('pending-text')).toHaveTextContent('No limit from 30/11/2026 14:30:00');

    await user.click(within(row('loss_week')).getByTestId('limit-confirm'));
    expect(await screen.findByTestId('limits-message')).toHaveTextContent('Your weekly loss limit is now ₹5,000.00.');
    expect(within(row('loss_week')).getByTestId('limit-in-force')).toHaveTextContent('₹5,000.00');
    expect(within(row('loss_week')).getByTestId('limit-waiting')).toHaveTextContent('-');

    await user.click(within(row('session')).getByTestId('limit-cancel'));
    await waitFor(() => expect(screen.getByTestId('limits-message')).toHaveTextContent('The change was dropped.'));
    expect(within(row('session')).queryByTestId('pending-text')).toBeNull();
    expect(sent(calls, 'user/confirmLimit')).toEqual([
      { kind: 'loss', period: 'week', accept: true },
      { kind: 'session', accept: false },
    ]);
  });

  it('puts the field the server names under it, checks the form before sending, and removes a limit with null', async () => {
    let refuse = true;
    const calls = setUp({
      'POST /api/user/limits': () =>
        refuse
          ? { httpStatus: 400, message: 'Check the fields.', data: { errors: { value: 'This is your limit already.' } } }
          : {
              message: 'Your stake limit will be removed from 30/11/2026 14:30:00 once you confirm it.',
              data: limits({ pending: [{ kind: 'stake', period: null, value: null, effective_at: EFFECTIVE_AT, confirmable: false }] }),
            },
    });
    const user = userEvent.setup();
    await screen.findByTestId('limits-table');
    const form = screen.getByTestId('limit-form');

    await user.click(within(form).getByTestId('limit-set'));
    expect(await within(form).findByText('Enter the limit.')).toBeInTheDocument();
    await user.type(within(form).getByTestId('limit-value'), '10.505');
    await user.click(within(form).getByTestId('limit-set'));
    expect(await within(form).findByText('Enter an amount with at most 2 decimals.')).toBeInTheDocument();
    expect(sent(calls, 'user/limits')).toEqual([]);

    await user.clear(within(form).getByTestId('limit-value'));
    await user.type(within(form).getByTestId('limit-value'), '2000');
    await user.click(within(form).getByTestId('limit-set'));
    expect(await within(form).findByText('This is your limit already.')).toBeInTheDocument();
    expect(within(form).getByTestId('limit-value').closest('.field')).toHaveClass('has-error');

    // A session limit is typed in whole minutes, 5 to 1440.
    await user.selectOptions(within(form).getByTestId('limit-slot'), 'session');
    expect(within(form).getByText('Minutes (5 to 1440)')).toBeInTheDocument();
    await user.clear(within(form).getByTestId('limit-value'));
    await user.type(within(form).getByTestId('limit-value'), '2');
    await user.click(within(form).getByTestId('limit-set'));
    expect(await within(form).findByText('A session limit is 5 to 1440 minutes.')).toBeInTheDocument();
    // No session limit to remove.
    expect(within(form).getByTestId('limit-remove')).toBeDisabled();

    refuse = false;
    await user.selectOptions(within(form).getByTestId('limit-slot'), 'stake');
    await user.click(within(form).getByTestId('limit-remove'));
    expect(await screen.findByTestId('limits-message')).toHaveTextContent('Your stake limit will be removed');
    expect(within(row('stake')).getByTestId('pending-text')).toHaveTextContent('No limit from 30/11/2026 14:30:00');
    expect(sent(calls, 'user/limits').at(-1)).toEqual({ kind: 'stake', value: null });
  });
});

describe('the reality check’s interval', () => {
  it('is saved with the preferences and the running reminder reads it again', async () => {
    const calls = setUp({
      'GET /api/user/preferences': { data: { one_click: false, one_click_stake: null, accept_rate_changes: 'exact', reality_check_minutes: 60 } },
      'POST /api/user/preferences': { message: 'Preferences saved.', data: { one_click: false, one_click_stake: null, accept_rate_changes: 'exact', reality_check_minutes: 30 } },
    });
    const user = userEvent.setup();
    const select = await screen.findByTestId('reality-minutes');
    await waitFor(() => expect(select).toBeEnabled());
    expect(select).toHaveValue('60');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['15 min', '30 min', '45 min', '1 h 0 min', '1 h 30 min', '2 h 0 min']);
    const summaries = () => calls.filter((c) => c.path === '/api/user/sessionSummary').length;
    const before = summaries();
    await user.selectOptions(select, '30');
    expect(await screen.findByTestId('reality-message')).toHaveTextContent('Preferences saved.');
    expect(select).toHaveValue('30');
    expect(sent(calls, 'user/preferences')).toEqual([{ reality_check_minutes: 30 }]);
    await waitFor(() => expect(summaries()).toBeGreaterThan(before));
  });
});

describe('a time-out', () => {
  it('says plainly what happens before sending, then logs the bettor out and says until when', async () => {
    let wrongPassword = true;
    const calls = setUp({
      'POST /api/user/timeOut': () =>
        wrongPassword
          ? { httpStatus: 400, message: 'Check the fields.', data: { errors: { password: 'Password is incorrect.' } } }
          : { message: 'Time-out taken.', data: { until: EFFECTIVE_AT, cancelled_bets: 2 } },
    });
    const user = userEvent.setup();
    const section = await screen.findByTestId('break-timeOut');

    await user.click(within(section).getByTestId('break-timeOut-continue'));
    expect(await within(section).findByText('Password is required.')).toBeInTheDocument();
    expect(screen.queryByTestId('break-confirm')).toBeNull();

    await user.selectOptions(within(section).getByTestId('break-timeOut-period'), '7d');
    await user.type(within(section).getByTestId('break-timeOut-password'), 'Wrong@123');
    await user.click(within(section).getByTestId('break-timeOut-continue'));
    const dialog = await screen.findByTestId('break-confirm');
    expect(within(dialog).getByRole('heading')).toHaveTextContent('Take a time-out for 7 days?');
    expect(dialog).toHaveTextContent('You are logged out at once, here and on every other device');
    expect(dialog).toHaveTextContent('Your unmatched bets are cancelled.');
    expect(dialog).toHaveTextContent('It cannot be undone or shortened until it ends');
    expect(sent(calls, 'user/timeOut')).toEqual([]);

    // Go back sends nothing.
    await user.click(within(dialog).getByTestId('break-back'));
    expect(screen.queryByTestId('break-confirm')).toBeNull();
    expect(sent(calls, 'user/timeOut')).toEqual([]);

    // A wrong password comes back to the form, on its field.
    await user.click(within(section).getByTestId('break-timeOut-continue'));
    await user.click(within(await screen.findByTestId('break-confirm')).getByTestId('break-confirm-button'));
    expect(await within(section).findByText('Password is incorrect.')).toBeInTheDocument();
    expect(screen.queryByTestId('break-confirm')).toBeNull();
    expect(localStorage.getItem('usertoken')).toBe(demoUser.token);

    wrongPassword = false;
    await user.clear(within(section).getByTestId('break-timeOut-password'));
    await user.type(within(section).getByTestId('break-timeOut-password'), 'Demo@1234');
    await user.click(within(section).getByTestId('break-timeOut-continue'));
    await user.click(within(await screen.findByTestId('break-confirm')).getByTestId('break-confirm-button'));

    expect(await screen.findByTestId('farewell')).toHaveTextContent(
      'Your time-out has started. You cannot log in until 30/11/2026 14:30:00. 2 unmatched bets were cancelled.',
    );
    expect(window.location.hash).toBe('#/login');
    expect(localStorage.getItem('usertoken')).toBeNull();
    expect(localStorage.getItem('userinfo')).toBeNull();
    expect(sent(calls, 'user/timeOut').at(-1)).toEqual({ period: '7d', password: 'Demo@1234' });
  });

  it('is then named by the log-in page when the bettor tries to log in', async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/user/login': {
        httpStatus: 422,
        message: 'You are on a time-out until 30/11/2026 14:30:00 IST.',
        data: { refusal: { refusal: 'timed_out', until_ms: Date.parse(EFFECTIVE_AT) } },
      },
    });
    renderApp('/login');
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('login-user-name'), 'demo');
    await user.type(screen.getByTestId('login-password'), 'Demo@1234');
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByTestId('error-message')).toHaveTextContent('You are on a time-out until 30/11/2026 14:30:00. You can log in again after that.');
  });
});

describe('self-exclusion', () => {
  it('offers its own periods and says a new account cannot be opened either', async () => {
    const calls = setUp({ 'POST /api/user/selfExclude': { data: { until: '2027-05-30T09:00:00.000Z', cancelled_bets: 0 } } });
    const user = userEvent.setup();
    const section = await screen.findByTestId('break-selfExclusion');
    const period = within(section).getByTestId('break-selfExclusion-period');
    expect(within(period).getAllByRole('option').map((o) => o.textContent)).toEqual(['6 months', '1 year', '3 years', '5 years']);
    await user.type(within(section).getByTestId('break-selfExclusion-password'), 'Demo@1234');
    await user.click(within(section).getByTestId('break-selfExclusion-continue'));
    const dialog = await screen.findByTestId('break-confirm');
    expect(within(dialog).getByRole('heading')).toHaveTextContent('Exclude yourself for 6 months?');
    expect(dialog).toHaveTextContent('Your mobile number cannot be used to sign up or to open a new account until it ends.');
    await user.click(within(dialog).getByTestId('break-confirm-button'));
    expect(await screen.findByTestId('farewell')).toHaveTextContent('Your self-exclusion has started. You cannot log in until 30/05/2027 14:30:00.');
    expect(screen.getByTestId('farewell')).not.toHaveTextContent('cancelled');
    expect(sent(calls, 'user/selfExclude')).toEqual([{ period: '6m', password: 'Demo@1234' }]);
  });
});

describe('the page in Hindi', () => {
  it('has the words of the Hindi catalogue, money and dates still in the Indian format', async () => {
    setLanguage('hi');
    setUp({ 'GET /api/user/limits': { data: limits({ pending: [{ kind: 'stake', period: null, value: 800, effective_at: EFFECTIVE_AT, confirmable: true }] }) } });
    const page = await screen.findByTestId('safer-gambling-page');
    await within(page).findByTestId('limits-table');
    expect(within(page).getByRole('heading', { level: 1 })).toHaveTextContent('ज़िम्मेदारी से खेलें');
    expect(within(row('loss_day')).getAllByRole('cell')[0]).toHaveTextContent('दैनिक नुकसान');
    expect(within(page).getByTestId('limit-left-loss')).toHaveTextContent('आज आप ₹1,240.00 और हार सकते हैं।');
    expect(within(row('stake')).getByTestId('pending-text')).toHaveTextContent('30/11/2026 14:30:00 से ₹800.00');
    expect(within(row('stake')).getByTestId('limit-confirm')).toHaveTextContent('पुष्टि करें');
    expect(within(within(page).getByTestId('reality-minutes')).getAllByRole('option')[4]).toHaveTextContent('1 घंटे 30 मिनट');
    for (const english of catalogueTexts(resources.en.safety)) {
      // Texts with a placeholder are filled in; look for the fixed ones.
      if (!english.includes('{{')) expect(within(page).queryByText(english)).toBeNull();
    }
  });
});
