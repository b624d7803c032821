import { Link } from 'react-router';
import { useFlash } from '../../hooks/useFlash';
import { formatIstDateTime } from '../../lib/format';
import type { Match, RunnerOdds } from './api';
import { oddsColumns, pickPath } from './odds-columns';

/**
 * A sport's matches as a betting site lists them: name and start (UTC+5:30), in-play,
 * bookmaker and fancy badges, and the match odds' best back (blue) and lay (pink) under
 * 1 / X / 2. A price opens the match with that selection in the bet slip.
 */
export function MatchList({ matches }: { matches: Match[] }) {
  return (
    <div className="table-wrap">
      <table className="match-table" data-testid="match-list">
        <thead>
          <tr>
            <th className="col-game">Game</th>
            <th colSpan={2}>1</th>
            <th colSpan={2}>X</th>
            <th colSpan={2}>2</th>
          </tr>
        </thead>
        <tbody>
          {matches.map((m) => {
            const columns = oddsColumns(m.odds);
            const open = m.odds?.status === 'open';
            return (
              <tr key={m.match_id} data-testid="match-row" data-match-id={m.match_id}>
                <td className="col-game">
                  <Link to={`/game-details/${m.sport_id}/${m.match_id}`} className="match-link">
                    <span className="match-name">{m.match_name || m.name}</span>
                    <span className="match-date">{formatIstDateTime(m.open_date)}</span>
                  </Link>
                  <span className="match-badges">
                    {m.in_play && <span className="badge in-play" data-testid="in-play">In Play</span>}
                    {m.has_bookmaker && <span className="badge bm" data-testid="badge-bookmaker" title="Bookmaker">BM</span>}
                    {m.has_fancy && <span className="badge fancy" data-testid="badge-fancy" title="Fancy">F</span>}
                    {m.odds && !open && <span className="badge suspended">{m.odds.status === 'ball_running' ? 'Ball Running' : 'Suspended'}</span>}
                  </span>
                </td>
                {columns.map((runner, i) => (
                  <OddsPair key={i} match={m} runner={runner} open={open} />
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function OddsPair({ match, runner, open }: { match: Match; runner: RunnerOdds | null; open: boolean }) {
  return (
    <>
      <ListPrice match={match} runner={runner} side="back" open={open} />
      <ListPrice match={match} runner={runner} side="lay" open={open} />
    </>
  );
}

function ListPrice({ match, runner, side, open }: { match: Match; runner: RunnerOdds | null; side: 'back' | 'lay'; open: boolean }) {
  const price = runner ? runner[side] : null;
  const flash = useFlash(String(price ?? ''));
  const className = `odds ${side}${flash ? ' flash' : ''}`;
  if (!runner || !match.odds || !open) {
    return (
      <td className={className} aria-label={runner ? `${side} ${runner.name}: not open` : 'no runner'}>
        {price ?? '-'}
      </td>
    );
  }
  return (
    <td className={className}>
      <Link
        to={pickPath(match.sport_id, match.match_id, match.odds.market_id, runner, side)}
        className="odds-link"
        aria-label={`${side === 'back' ? 'Back' : 'Lay'} ${runner.name}${price ? ` at ${price}` : ''}`}
        data-testid={`list-${side}`}
      >
        {price ?? '-'}
      </Link>
    </td>
  );
}
