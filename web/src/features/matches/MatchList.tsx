import { Link } from 'react-router';
import { formatIstDateTime } from '../../lib/format';
import type { Match } from './api';

/** A sport's matches as a betting site lists them; odds arrive with the markets issue. */
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
          {matches.map((m) => (
            <tr key={m.match_id} data-testid="match-row">
              <td className="col-game">
                <Link to={`/game-details/${m.sport_id}/${m.match_id}`} className="match-link">
                  <span className="match-name">{m.match_name || m.name}</span>
                  <span className="match-date">{formatIstDateTime(m.open_date)}</span>
                </Link>
                {m.in_play && <span className="badge in-play" data-testid="in-play">In Play</span>}
              </td>
              {[0, 1, 2].map((i) => (
                <OddsPair key={i} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function OddsPair() {
  return (
    <>
      <td className="odds back" aria-label="back price not open yet">-</td>
      <td className="odds lay" aria-label="lay price not open yet">-</td>
    </>
  );
}
