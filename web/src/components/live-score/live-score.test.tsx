// The score strip and result banner render what the server sent, for each sport.
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ResultBanner } from './ResultBanner';
import { ScoreStrip } from './ScoreStrip';
import { hasEnded, ordinal, sidesOf, type Score } from './score';

const chase: Score = {
  sport: 'cricket',
  innings: [
    { side: 'Chennai Super Kings', runs: 180, wickets: 6, overs: 20, balls: 0, overs_text: '20.0' },
    { side: 'Mumbai Indians', runs: 45, wickets: 2, overs: 5, balls: 3, overs_text: '5.3' },
  ],
  overs_limit: 20,
  last_balls: ['1', '4', 'W', '0', '6', '1wd'],
  run_rate: 8.18,
  target: 181,
  runs_needed: 136,
  balls_left: 87,
  required_rate: 9.38,
};

describe('the score strip', () => {
  it('shows the cricket innings, both run rates, the chase and the last six balls', () => {
    render(<ScoreStrip score={chase} matchName="Chennai Super Kings v Mumbai Indians" />);
    const strip = screen.getByTestId('score-strip');
    expect(strip).toHaveAttribute('data-sport', 'cricket');
    expect(within(strip).getByTestId('score-innings')).toHaveTextContent('Mumbai Indians45/2(5.3/20 ov)Chennai Super Kings 180/6 (20.0)');
    expect(within(strip).getByTestId('score-crr')).toHaveTextContent('CRR 8.18');
    expect(within(strip).getByTestId('score-rrr')).toHaveTextContent('RRR 9.38');
    expect(within(strip).getByTestId('score-target')).toHaveTextContent('Target 181 · need 136 from 87 balls');
    const balls = within(strip).getByTestId('score-balls').querySelectorAll('li');
    expect([...balls].map((b) => b.textContent)).toEqual(['1', '4', 'W', '0', '6', '1wd']);
    expect([...balls].map((b) => b.className)).toEqual(['ball runs', 'ball boundary', 'ball wicket', 'ball dot', 'ball boundary', 'ball extra']);
  });

  it('leaves the chase out in the first innings and shows - before a ball', () => {
    const first: Score = { ...chase, innings: [{ side: 'A', runs: 0, wickets: 0, overs: 0, balls: 0, overs_text: '0.0' }], last_balls: [], run_rate: null, target: null, runs_needed: null, balls_left: null, required_rate: null };
    render(<ScoreStrip score={first} matchName="A v B" />);
    expect(screen.getByTestId('score-crr')).toHaveTextContent('CRR -');
    expect(screen.queryByTestId('score-rrr')).toBeNull();
    expect(screen.queryByTestId('score-target')).toBeNull();
    expect(screen.queryByTestId('score-balls')).toBeNull();
  });

  it('shows only the innings once the match has ended', () => {
    render(<ScoreStrip score={chase} matchName="Chennai Super Kings v Mumbai Indians" ended />);
    expect(screen.getByTestId('score-innings')).toHaveTextContent('Mumbai Indians45/2(5.3/20 ov)Chennai Super Kings 180/6 (20.0)');
    expect(screen.queryByTestId('score-crr')).toBeNull();
    expect(screen.queryByTestId('score-target')).toBeNull();
    expect(screen.queryByTestId('score-balls')).toBeNull();
  });

  it('has a one-line compact form for lists', () => {
    render(<ScoreStrip score={chase} matchName="Chennai Super Kings v Mumbai Indians" compact />);
    expect(screen.getByTestId('score-line')).toHaveTextContent('Mumbai Indians 45/2 (5.3) · need 136');
  });

  it('shows football goals and minute, tennis sets and games with the server, and race placings', () => {
    const { unmount } = render(<ScoreStrip score={{ sport: 'football', goals: [2, 1], minute: 67 }} matchName="Arsenal v Chelsea" />);
    expect(screen.getByTestId('score-strip')).toHaveTextContent("Arsenal2 - 1Chelsea67'");
    unmount();
    const tennis = render(<ScoreStrip score={{ sport: 'tennis', sets: [1, 0], games: [3, 5], serving: 1 }} matchName="Sinner v Alcaraz" />);
    const rows = screen.getByTestId('score-tennis').querySelectorAll('tbody tr');
    expect([...rows].map((r) => r.textContent)).toEqual(['Sinner13', 'Alcaraz ●05']);
    expect(within(rows[1] as HTMLElement).getByLabelText('serving')).toBeInTheDocument();
    tennis.unmount();
    render(<ScoreStrip score={{ sport: 'race', placings: ['Red Rum', 'Arkle', 'Kauto Star'] }} matchName="14:30 Ascot" />);
    expect([...screen.getByTestId('score-placings').querySelectorAll('li')].map((l) => l.textContent)).toEqual(['1st Red Rum', '2nd Arkle', '3rd Kauto Star']);
  });
});

describe('the result banner', () => {
  it('says the result, or that the event has ended', () => {
    const { unmount } = render(<ResultBanner result="Chennai Super Kings won by 12 runs" />);
    expect(screen.getByTestId('result-banner')).toHaveTextContent('ResultChennai Super Kings won by 12 runs');
    unmount();
    render(<ResultBanner result={null} />);
    expect(screen.getByTestId('result-banner')).toHaveTextContent('This event has ended.');
  });
});

describe('the match state helpers', () => {
  it('knows an ended match by its result, its finished flag or all its markets settled', () => {
    const playing = { in_play: true, finished: false, result: null };
    expect(hasEnded(playing)).toBe(false);
    expect(hasEnded({ ...playing, result: 'A won' })).toBe(true);
    expect(hasEnded({ ...playing, finished: true })).toBe(true);
    expect(hasEnded(playing, [{ status: 'closed' }, { status: 'void' }])).toBe(true);
    expect(hasEnded(playing, [{ status: 'closed' }, { status: 'suspended' }])).toBe(false);
    expect(hasEnded(playing, [])).toBe(false);
  });

  it('splits A v B names and counts places', () => {
    expect(sidesOf('India v Australia')).toEqual(['India', 'Australia']);
    expect(sidesOf('14:30 Ascot')).toBeNull();
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']);
  });
});
