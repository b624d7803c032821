import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';

describe('racing page', () => {
  it("shows a tab per country the server lists for the day, named, and the chosen country's venues", async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/match/getRacingCountries': {
        data: [
          { country_code: 'IE', venues: 1, races: 5 },
          { country_code: 'ZA', venues: 1, races: 4 },
        ],
      },
      'POST /api/match/getMatchVenueListByCountryCodeSportId': (call) => {
        const { country } = call.body as { country: string };
        const venue = country === 'ZA' ? 'Turffontein' : 'Leopardstown';
        return { data: [{ venue, country_code: country, races: [{ match_id: 7, name: `${venue} 14:05`, market_start_time: '2026-11-24T08:35:00.000Z', in_play: false, finished: false }] }] };
      },
    });
    storeSession();
    renderApp('/horse-racing?sport_id=7&date=2026-11-24');
    const user = userEvent.setup();

    const tabs = await screen.findAllByTestId('racing-country');
    expect(tabs.map((t) => t.textContent)).toEqual(['Ireland', 'South Africa']);
    expect(calls.find((c) => c.path === '/api/match/getRacingCountries')?.body).toEqual({ sport_id: 7, date: '2026-11-24' });
    // No country asked: the one with the most races.
    expect(await screen.findByText('Leopardstown')).toBeInTheDocument();
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');

    await user.click(tabs[1]);
    expect(await screen.findByText('Turffontein')).toBeInTheDocument();
    const venueCalls = calls.filter((c) => c.path === '/api/match/getMatchVenueListByCountryCodeSportId');
    expect(venueCalls.at(-1)?.body).toEqual({ country: 'ZA', date: '2026-11-24', sport_id: 7 });
    await waitFor(() => expect(window.location.hash).toContain('country=ZA'));
  });

  it('marks the races run and over as finished, the one being run as in play', async () => {
    const race = (match_id: number, time: string, in_play: boolean, finished: boolean) => ({ match_id, name: `Ascot ${time}`, market_start_time: `2026-11-24T${time}:00.000Z`, in_play, finished });
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/match/getRacingCountries': { data: [{ country_code: 'GB', venues: 1, races: 3 }] },
      'POST /api/match/getMatchVenueListByCountryCodeSportId': {
        data: [{ venue: 'Ascot', country_code: 'GB', races: [race(1, '08:00', false, true), race(2, '08:35', true, false), race(3, '09:10', false, false)] }],
      },
    });
    storeSession();
    renderApp('/horse-racing?sport_id=7&date=2026-11-24');

    const times = await screen.findAllByTestId('race-time');
    expect(times.map((t) => t.textContent)).toEqual(['13:30 · Finished', '14:05 · In-Play', '14:40']);
    expect(times.map((t) => t.classList.contains('finished'))).toEqual([true, false, false]);
  });

  it('says there are no races when no country has any that day, without asking for venues', async () => {
    const calls = stubServer({ ...EMPTY_CATALOGUE, 'POST /api/match/getRacingCountries': { data: [] } });
    storeSession();
    renderApp('/horse-racing?sport_id=4339&country=GB&date=2020-01-01');

    expect(await screen.findByTestId('empty-state')).toHaveTextContent('No races on this date.');
    expect(screen.queryAllByTestId('racing-country')).toHaveLength(0);
    expect(calls.some((c) => c.path === '/api/match/getMatchVenueListByCountryCodeSportId')).toBe(false);
  });
});
