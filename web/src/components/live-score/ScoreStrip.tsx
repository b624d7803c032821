import { useTranslation } from 'react-i18next';
import type { CricketScore, Score } from './score';
import { placeName, rate, sidesOf } from './score';

/**
 * The score of a match as the server last sent it: cricket's innings (runs/wickets and overs),
 * current and required run rate, target and the last six balls; football's goals and minute;
 * tennis's sets and games with the server marked; a race's placings. `compact` is the one-line
 * version for match lists. Once the match has `ended` the strip is its final score: the
 * innings alone, no run rates, chase or recent balls of a game no longer being played.
 */
export function ScoreStrip({ score, matchName, compact = false, ended = false }: { score: Score; matchName: string; compact?: boolean; ended?: boolean }) {
  const { t, i18n } = useTranslation();
  const className = `score-strip${compact ? ' compact' : ''}`;
  return (
    <div className={className} data-testid={compact ? 'score-line' : 'score-strip'} data-sport={score.sport} role="status" aria-live="polite">
      {score.sport === 'cricket' ? (
        <Cricket score={score} compact={compact} ended={ended} />
      ) : score.sport === 'football' ? (
        <TwoSides
          names={sidesOf(matchName)}
          figures={[String(score.goals[0] ?? 0), String(score.goals[1] ?? 0)]}
          note={`${score.minute}'`}
          noteLabel={t('score.minute')}
        />
      ) : score.sport === 'tennis' ? (
        <Tennis score={score} names={sidesOf(matchName)} compact={compact} />
      ) : (
        <ol className="score-placings" data-testid="score-placings">
          {score.placings.slice(0, compact ? 3 : undefined).map((name, i) => (
            <li key={name}>
              <span className="place">{placeName(i + 1, i18n.language)}</span> {name}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function Cricket({ score, compact, ended }: { score: CricketScore; compact: boolean; ended: boolean }) {
  const { t } = useTranslation();
  const current = score.innings[score.innings.length - 1];
  const earlier = score.innings.slice(0, -1);
  if (!current) return null;
  const figures = (i: typeof current) => `${i.runs}/${i.wickets}`;
  if (compact) {
    return (
      <span className="score-cricket-line">
        <b>{current.side}</b> {figures(current)} ({current.overs_text})
        {score.target !== null && score.runs_needed !== null && score.runs_needed > 0 ? ` · ${t('score.need', { runs: score.runs_needed })}` : ''}
      </span>
    );
  }
  return (
    <>
      <div className="score-innings" data-testid="score-innings">
        <span className="score-side">{current.side}</span>
        <span className="score-runs" data-testid="score-runs">
          {figures(current)}
        </span>
        <span className="score-overs" data-testid="score-overs">
          ({current.overs_text}
          {score.overs_limit !== null ? `/${score.overs_limit}` : ''} {t('score.overs')})
        </span>
        {earlier.map((i) => (
          <span key={`${i.side}-${i.runs}-${i.wickets}`} className="score-earlier">
            {i.side} {figures(i)} ({i.overs_text})
          </span>
        ))}
      </div>
      {!ended && (
        <div className="score-rates">
          <span data-testid="score-crr">{t('score.crr')} {rate(score.run_rate)}</span>
          {score.required_rate !== null && <span data-testid="score-rrr">{t('score.rrr')} {rate(score.required_rate)}</span>}
          {score.target !== null && (
            <span data-testid="score-target">
              {t('score.target', { target: score.target })}
              {score.runs_needed !== null && score.balls_left !== null && score.runs_needed > 0
                ? ` · ${t('score.needFrom', { runs: score.runs_needed, balls: score.balls_left })}`
                : ''}
            </span>
          )}
        </div>
      )}
      {!ended && score.last_balls.length > 0 && (
        <ol className="score-balls" data-testid="score-balls" aria-label={t('score.lastBalls')}>
          {score.last_balls.map((ball, i) => (
            <li key={i} className={`ball ${ballKind(ball)}`}>
              {ball}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

/** How a delivery is coloured: a wicket, a boundary, an extra, runs or a dot. */
function ballKind(ball: string): string {
  if (ball === 'W') return 'wicket';
  if (ball === '4' || ball === '6') return 'boundary';
  if (/[a-z]/.test(ball)) return 'extra';
  return ball === '.' || ball === '0' ? 'dot' : 'runs';
}

function TwoSides({ names, figures, note, noteLabel }: { names: [string, string] | null; figures: [string, string]; note: string; noteLabel: string }) {
  return (
    <span className="score-two-sides">
      {names ? <span className="score-side">{names[0]}</span> : null}
      <span className="score-runs" data-testid="score-figures">
        {figures[0]} - {figures[1]}
      </span>
      {names ? <span className="score-side">{names[1]}</span> : null}
      <span className="score-note" aria-label={noteLabel}>
        {note}
      </span>
    </span>
  );
}

function Tennis({ score, names, compact }: { score: Extract<Score, { sport: 'tennis' }>; names: [string, string] | null; compact: boolean }) {
  const { t } = useTranslation();
  const players = names ?? [t('score.player', { n: 1 }), t('score.player', { n: 2 })];
  if (compact) {
    return (
      <span className="score-tennis-line">
        {t('score.sets')} {score.sets[0]}-{score.sets[1]} · {t('score.games')} {score.games[0]}-{score.games[1]}
      </span>
    );
  }
  return (
    <table className="score-tennis" data-testid="score-tennis">
      <thead>
        <tr>
          <th scope="col">{t('score.playerHeading')}</th>
          <th scope="col">{t('score.sets')}</th>
          <th scope="col">{t('score.games')}</th>
        </tr>
      </thead>
      <tbody>
        {players.map((player, i) => (
          <tr key={player}>
            <th scope="row">
              {player}
              {score.serving === i ? (
                <span className="serving" title={t('score.serving')} aria-label={t('score.servingLabel')}>
                  {' '}
                  ●
                </span>
              ) : null}
            </th>
            <td>{score.sets[i]}</td>
            <td>{score.games[i]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
