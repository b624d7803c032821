import { describe, expect, it } from 'vitest';
import { demoUser } from '../../testing/render';
import { userMenuItems } from './menu';

const labels = (...args: Parameters<typeof userMenuItems>) => userMenuItems(...args).map((i) => i.label);
const ALL = [
  'Account Statement',
  'Payment Statement',
  'Current Bet',
  'Profit & Loss',
  'Bet History',
  'Casino Result',
  'Live Casino Bets',
  'Set Button Values',
  'Security Auth Verification',
  'Change Password',
  'Rules',
  'Safer Gambling',
  'Log-in History',
];

describe('user menu visibility (spec §2)', () => {
  it('shows every item with a parent, a token and the payment gateway on', () => {
    expect(labels(demoUser, { payment_gateway: 1 }, 'tok')).toEqual(ALL);
  });

  it('hides the payment items when payment_gateway is not 1', () => {
    expect(labels(demoUser, { payment_gateway: 0 }, 'tok')).toEqual(ALL.filter((l) => l !== 'Payment Statement'));
    expect(labels(demoUser, null, 'tok')).not.toContain('Payment Statement');
  });

  it('hides payment and parent-token items without a parent (-1 or missing)', () => {
    const expected = ['Account Statement', 'Current Bet', 'Profit & Loss', 'Bet History', 'Casino Result', 'Set Button Values', 'Rules', 'Safer Gambling', 'Log-in History'];
    expect(labels({ ...demoUser, parent_id: -1 }, { payment_gateway: 1 }, 'tok')).toEqual(expected);
    expect(labels({ ...demoUser, parent_id: undefined }, { payment_gateway: '1' }, 'tok')).toEqual(expected);
  });

  it('hides Live Casino Bets, Security Auth Verification and Change Password without a token', () => {
    expect(labels(demoUser, { payment_gateway: 1 }, null)).toEqual(
      ALL.filter((l) => !['Live Casino Bets', 'Security Auth Verification', 'Change Password'].includes(l)),
    );
  });
});

describe('the reports beyond the spec', () => {
  it('come right after Current Bet, to their own pages, leaving the spec\'s items as they are', () => {
    const items = userMenuItems(demoUser, { payment_gateway: 1 }, 'tok');
    const at = items.findIndex((i) => i.label === 'Current Bet');
    expect(items.slice(at + 1, at + 3).map((i) => [i.label, i.to])).toEqual([
      ['Profit & Loss', '/report/profit-loss'],
      ['Bet History', '/report/bet-history'],
    ]);
  });
});

describe('the console in the user menu', () => {
  it('comes first for an admin or an agent, and never for a client', () => {
    expect(labels({ ...demoUser, role: 'agent' }, { payment_gateway: 1 }, 'tok')).toEqual(['Console', ...ALL.filter((l) => l !== 'Safer Gambling')]);
    expect(labels({ ...demoUser, role: 'admin', parent_id: -1 }, null, 'tok')[0]).toBe('Console');
    expect(labels(demoUser, { payment_gateway: 1 }, 'tok')).not.toContain('Console');
    expect(userMenuItems({ ...demoUser, role: 'agent' }, null, 'tok')[0].to).toBe('/console');
  });
});

describe('safer gambling in the user menu', () => {
  it('comes after the spec\'s items, Safer Gambling for a bettor only, Log-in History for everyone', () => {
    const items = userMenuItems(demoUser, { payment_gateway: 1 }, 'tok');
    expect(items.slice(-3).map((i) => [i.label, i.to ?? i.action])).toEqual([
      ['Rules', 'rules'],
      ['Safer Gambling', '/safer-gambling'],
      ['Log-in History', '/login-history'],
    ]);
    expect(labels({ ...demoUser, role: 'admin', parent_id: -1 }, null, 'tok').slice(-2)).toEqual(['Rules', 'Log-in History']);
  });
});
