import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { i18n } from '../../i18n';
import { useFlash } from '../../hooks/useFlash';
import { formatIstDateTime } from '../../lib/format';
import { ScoreStrip } from '../../components/live-score/ScoreStrip';
import { formatSize } from '../../lib/size';
import type { Match, RunnerOdds } from './api';
import { isTwoWay, listColumns, oddsColumns, pickPath } from './odds-columns';

/**
 * A list of matches as the top exchanges show it: name and start (UTC+5:30), in-play,
 * bookmaker and fancy badges, and the match odds' best back (blue) and lay (pink) with the
 * money offered under each price, under 1 / X / 2 (1 / 2 when nothing in the list can be
 * drawn). On a phone each match's name takes a full line above its strip of prices, which
 * shows only the match's own outcomes under their own 1 / X / 2 headings. A suspended market covers its prices with one label
 * across the row. A price opens the match with that selection in the bet slip.
 */
export function MatchList({ matches }: { matches: Match[] }) {
  const { t } = useTranslation('matches');
  const columns = listColumns(matches);
  return (
    <div className={`match-list cols-${columns.length}`} data-testid="match-list" role="table" aria-label={t('list.label')}>
      <div className="match-list-head" role="row">
        <span className="col-game" role="columnheader">
          {t('list.game')}
        </span>
        {columns.map((c) => (
          <span key={c} className="col-outcome" role="columnheader">
            {c}
          </span>
        ))}
      </div>
      {matches.map((m) => (
        <MatchRow key={m.match_id} match={m} withDraw={columns.length === 3} />
      ))}
    </div>
  );
}

/** Words across a row whose market takes no bets now. */
export function suspendedLabel(status: string): string | null {
  if (status === 'ball_running') return i18n.t('matches:status.ballRunning');
  if (status === 'suspended') return i18n.t('matches:status.suspended');
  return null;
}

function MatchRow({ match, withDraw }: { match: Match; withDraw: boolean }) {
  const { t } = useTranslation('matches');
  const [home, draw, away] = oddsColumns(match.odds);
  const twoWay = isTwoWay(match);
  const open = match.odds?.status === 'open';
  const label = match.odds ? suspendedLabel(match.odds.status) : null;
  // The row's own outcomes: its strip on a phone drops X for a match with no draw.
  const cells: { runner: RunnerOdds | null; outcome: string }[] = [
    { runner: home, outcome: '1' },
    ...(withDraw ? [{ runner: draw, outcome: 'X' }] : []),
    { runner: away, outcome: '2' },
  ];
  return (
    <div className="match-row" data-testid="match-row" data-match-id={match.match_id} role="row">
      <div className="match-info" role="cell">
        <Link to={`/game-details/${match.sport_id}/${match.match_id}`} className="match-link">
          <span className="match-name" data-testid="match-name">
            {match.match_name || match.name}
          </span>
        </Link>
        <span className="match-meta">
          <span className="match-date">{formatIstDateTime(match.open_date)}</span>
          {match.in_play && (
            <span className="badge in-play" data-testid="in-play">
              {t('inPlay')}
            </span>
          )}
          {match.has_bookmaker && (
            <span className="badge bm" data-testid="badge-bookmaker" title={t('list.bookmaker')}>
              {t('list.bm')}
            </span>
          )}
          {match.has_fancy && (
            <span className="badge fancy" data-testid="badge-fancy" title={t('list.fancy')}>
              {t('list.f')}
            </span>
          )}
        </span>
        {match.in_play && match.score && <ScoreStrip score={match.score} matchName={match.match_name || match.name} compact />}
      </div>
      {/* The list's 1 / X / 2 heading is one row over aligned columns, which a phone does not
          have: there each strip carries its own outcomes' headings, over its own pairs. */}
      <div className="outcome-labels" aria-hidden="true" data-testid="outcome-labels">
        {cells
          .filter(({ outcome }) => !(outcome === 'X' && twoWay))
          .map(({ outcome }) => (
            <span key={outcome}>{outcome}</span>
          ))}
      </div>
      <div className={`match-odds${label ? ' suspended' : ''}`} role="cell" data-testid="match-odds">
        {cells.map(({ runner, outcome }) => (
          <div key={outcome} className={`odds-pair${outcome === 'X' && twoWay ? ' no-draw' : ''}`} data-outcome={outcome}>
            <ListPrice match={match} runner={runner} side="back" open={open} />
            <ListPrice match={match} runner={runner} side="lay" open={open} />
          </div>
        ))}
        {label && (
          <div className={`market-overlay ${match.odds?.status === 'ball_running' ? 'ball-running' : ''}`.trim()} data-testid="row-overlay" role="status">
            {label}
          </div>
        )}
      </div>
    </div>
  );
}

function ListPrice({ match, runner, side, open }: { match: Match; runner: RunnerOdds | null; side: 'back' | 'lay'; open: boolean }) {
  const { t } = useTranslation(['matches', 'common']);
  const price = runner ? runner[side] : null;
  const size = runner ? runner[side === 'back' ? 'back_size' : 'lay_size'] : null;
  const flash = useFlash(String(price ?? ''));
  const className = `odds ${side}${flash ? ' flash' : ''}`;
  const body = (
    <>
      <span className="price">{price ?? '-'}</span>
      {price !== null && size !== null && <span className="size">{formatSize(size)}</span>}
    </>
  );
  if (!runner || !match.odds || !open) {
    return (
      <span className={className} data-testid={`list-${side}-closed`} aria-label={runner ? t('list.notOpen', { side: t(`common:side.${side}`), runner: runner.name }) : t('list.noRunner')}>
        {body}
      </span>
    );
  }
  return (
    <Link
      to={pickPath(match.sport_id, match.match_id, match.odds.market_id, runner, side)}
      className={`${className} odds-link`}
      aria-label={price ? t('list.pickAt', { side: t(`common:side.${side}`), runner: runner.name, price }) : t('list.pick', { side: t(`common:side.${side}`), runner: runner.name })}
      data-testid={`list-${side}`}
    >
      {body}
    </Link>
  );
}
