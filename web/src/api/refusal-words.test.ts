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
