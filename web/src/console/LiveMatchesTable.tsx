// The matches with markets not yet settled (console/market/live), as a table with a link per
// match: the Risk screen opens a match's analysis from it, the Trading desk a match's desk.
import { Link } from 'react-router';
import { formatIstDateTime } from '../lib/format';
import type { LiveMatch } from './risk/api';

export function LiveMatchesTable({ matches, linkOf, testIdPrefix }: {
  matches: readonly LiveMatch[];
  /** Where a match's link goes, relative to the current screen. */
  linkOf: (match: LiveMatch) => string;
  /** The table is `<prefix>-matches`, its rows `<prefix>-match-row`, links `<prefix>-match-link`. */
  testIdPrefix: string;
}) {
  return (
    <div className="table-wrap">
      <table className="data-table stack-on-phone" data-testid={`${testIdPrefix}-matches`}>
        <thead>
          <tr>
            <th scope="col">Match</th>
            <th scope="col">Starts</th>
            <th scope="col">Markets</th>
          </tr>
        </thead>
        <tbody>
          {matches.map((m) => (
            <tr key={m.match_id} data-testid={`${testIdPrefix}-match-row`}>
              <td data-label="Match">
                <Link to={linkOf(m)} data-testid={`${testIdPrefix}-match-link`}>{m.name}</Link>
                {m.in_play && <span className="status-chip"> In play</span>}
                <div className="muted small">{m.sport_name} · {m.series_name}</div>
              </td>
              <td data-label="Starts">{formatIstDateTime(m.open_date)}</td>
              <td data-label="Markets">{m.markets.map((market) => market.name).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
