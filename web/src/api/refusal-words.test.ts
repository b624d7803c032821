import { describe, expect, it } from 'vitest';
import { setLanguage } from '../i18n';
import { stubServer } from '../testing/fake-server';
import { ApiError, apiPost } from './client';
import { refusalWords } from './refusal-words';

const funds = { refusal: { refusal: 'insufficient_funds', needed_minor: 1_000_00, available_minor: 400_00 } };

describe('a refused bet in the bettor’s language', () => {
  it('words the refusal’s facts, amounts in the Indian format', () => {
    expect(refusalWords(funds)).toBe('Insufficient funds: this bet needs ₹1,000.00 and you have ₹400.00 available.');
    expect(refusalWords({ refusal: { refusal: 'market_not_open', status: 'ball_running' } })).toBe(
      'This market is suspended (ball running) and takes no bets now.',
    );
    expect(refusalWords({ refusal: { refusal: 'stake_below_minimum', min_minor: 1_00_000_00 } })).toBe('The minimum stake here is ₹1,00,000.00.');
    // Not a refusal this client knows, or none: the server's message stands.
    expect(refusalWords({ refusal: { refusal: 'something_new' } })).toBeNull();
    expect(refusalWords({ errors: { stake: 'bad' } })).toBeNull();
    expect(refusalWords(null)).toBeNull();
  });

  it('words the bettor’s own limits: what a loss or deposit limit leaves in its period, or that it is reached', () => {
    expect(refusalWords({ refusal: { refusal: 'loss_limit', left_minor: 1_240_00, period: 'day', limit_minor: 2_000_00 } })).toBe(
      'This would go past your daily loss limit of ₹2,000.00: you can lose ₹1,240.00 more today.',
    );
    expect(refusalWords({ refusal: { refusal: 'loss_limit', left_minor: 0, period: 'month', limit_minor: 1_00_000_00 } })).toBe(
      'You have reached your monthly loss limit of ₹1,00,000.00.',
    );
    expect(refusalWords({ refusal: { refusal: 'deposit_limit', left_minor: 50_00, period: 'week', limit_minor: 5_000_00 } })).toBe(
      'This request would go past your weekly deposit limit of ₹5,000.00: you can deposit ₹50.00 more this week.',
    );
    expect(refusalWords({ refusal: { refusal: 'deposit_limit', left_minor: 0, period: 'week', limit_minor: 5_000_00 } })).toBe(
      'You have reached your weekly deposit limit of ₹5,000.00.',
    );
    expect(refusalWords({ refusal: { refusal: 'own_stake_limit', limit_minor: 500_00 } })).toBe('The most you can stake on one bet is ₹500.00.');
    // A period this client does not know: the server's message stands.
    expect(refusalWords({ refusal: { refusal: 'loss_limit', left_minor: 1, period: 'fortnight', limit_minor: 2 } })).toBeNull();
  });

  it('words a refused log-in during a time-out or self-exclusion with its end at IST', () => {
    // 2026-11-30T09:00:00Z is 14:30 in India.
    const until_ms = Date.UTC(2026, 10, 30, 9, 0, 0);
    expect(refusalWords({ refusal: { refusal: 'timed_out', until_ms } })).toBe(
      'You are on a time-out until 30/11/2026 14:30:00. You can log in again after that.',
    );
    expect(refusalWords({ refusal: { refusal: 'self_excluded', until_ms } })).toBe(
      'You have excluded yourself until 30/11/2026 14:30:00. You can log in again after that.',
    );
    expect(refusalWords({ refusal: { refusal: 'timed_out' } })).toBeNull();
    setLanguage('hi');
    expect(refusalWords({ refusal: { refusal: 'loss_limit', left_minor: 1_240_00, period: 'day', limit_minor: 2_000_00 } })).toBe(
      'इससे आपकी ₹2,000.00 की दैनिक नुकसान सीमा पार हो जाएगी: आज आप ₹1,240.00 और हार सकते हैं।',
    );
    expect(refusalWords({ refusal: { refusal: 'timed_out', until_ms } })).toBe('आपका टाइम-आउट 30/11/2026 14:30:00 तक है। उसके बाद आप फिर से लॉग इन कर सकते हैं।');
  });

  it('replaces the server’s English in the error a call throws, in Hindi when the app is', async () => {
    setLanguage('hi');
    stubServer({
      'POST /api/bet/placeBet': { httpStatus: 422, message: 'Insufficient funds: this bet needs ₹1,000.00 and you have ₹400.00 available.', data: funds },
    });
    const error = await apiPost('bet/placeBet', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('पर्याप्त बैलेंस नहीं: इस बेट के लिए ₹1,000.00 चाहिए और आपके पास ₹400.00 उपलब्ध है।');
    expect((error as ApiError).httpStatus).toBe(422);
  });
});
