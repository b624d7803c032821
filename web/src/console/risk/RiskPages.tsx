import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, Route, Routes, useParams } from 'react-router';
import { dataOr } from '../../api/client';
import { browserEventSource, getStreamTicket } from '../../api/live-stream';
import { MatchStream, streamUrl } from '../../api/match-stream';
import { PageCard } from '../../components/PageCard';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';
import { formatIstDateTime, formatMinorMoney, formatMoney } from '../../lib/format';
import { toMinor } from '../../lib/money';
import { LiveMatchesTable } from '../LiveMatchesTable';
import { EmptyRow } from '../TableParts';
import {
  getAnalysis,
  listLiveMatches,
  listMarketBets,
  riskKeys,
  RISK_BETS_PAGE_LIMIT,
  type BetSideFilter,
  type MarketAnalysis,
} from './api';
import { ladderLabel, pnlClass, runLadder, throttle } from './position';
import './risk.css';

/** The analysis is asked for again at most this often while the stream reports changes. */
const ANALYSIS_REFETCH_MS = 1_000;

/** `#/console/risk/…`: the matches with live markets, and one match's analysis. */
export function RiskRoutes() {
  return (
    <Routes>
      <Route index element={<LiveMatchesPage />} />
      <Route path=":matchId" element={<MatchRiskPage />} />
    </Routes>
  );
}

/** `#/console/risk`: every match with a market not yet settled. */
function LiveMatchesPage() {
  const query = useQuery({ queryKey: riskKeys.live, queryFn: async () => dataOr(await listLiveMatches(), null) });
  const matches = query.data ?? [];
  return (
    <PageCard title="Market analysis" testId="risk-page">
      <QueryState isPending={query.isPending} error={query.error}>
        {matches.length === 0 ? (
          <p className="empty-state" data-testid="risk-empty">No match has a live market.</p>
        ) : (
          <LiveMatchesTable matches={matches} linkOf={(m) => String(m.match_id)} testIdPrefix="risk" />
        )}
      </QueryState>
    </PageCard>
  );
}

/**
 * Asks for the analysis and the bet list again (at most once a second) whenever the match's
 * stream moves. Both are fetched as the page opens (staleTime 0), so the stream's first snapshot
 * and the score sent right after it repeat what was just read and ask for nothing; a later
 * snapshot (after a reconnect, when changes may have been missed) does.
 */
function useAnalysisFollowsStream(matchId: number) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!Number.isFinite(matchId)) return undefined;
    const refetch = throttle(() => {
      void queryClient.invalidateQueries({ queryKey: riskKeys.analysis(matchId) });
      void queryClient.invalidateQueries({ queryKey: riskKeys.allBets });
    }, ANALYSIS_REFETCH_MS);
    const changed = () => refetch.call();
    let snapshotSeen = false;
    let openingScoreSeen = false;
    const stream = new MatchStream({
      matchId,
      getTicket: getStreamTicket,
      openSource: browserEventSource(),
      url: streamUrl,
      onSnapshot: () => {
        if (snapshotSeen) changed();
        snapshotSeen = true;
      },
      onMarket: changed,
      onScore: () => {
        if (snapshotSeen && !openingScoreSeen) openingScoreSeen = true;
        else changed();
      },
      poll: changed,
    });
    stream.start();
    return () => {
      refetch.cancel();
      stream.stop();
    };
  }, [matchId, queryClient]);
}

/** `#/console/risk/<matchId>`: the house's position on each live market, and its bets. */
function MatchRiskPage() {
  const matchId = Number(useParams().matchId);
  useAnalysisFollowsStream(matchId);
  const query = useQuery({
    queryKey: riskKeys.analysis(matchId),
    queryFn: async () => dataOr(await getAnalysis(matchId), null),
    enabled: Number.isFinite(matchId),
    // Fresh on every visit: the stream's first snapshot does not ask again (useAnalysisFollowsStream).
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
  const analysis = query.data;
  const [selected, setSelected] = useState<number | null>(null);
  const marketId = selected ?? analysis?.markets[0]?.market_id ?? null;
  return (
    <PageCard title={analysis ? `Market analysis: ${analysis.name}` : 'Market analysis'} testId="risk-match-page" actions={<Link className="btn btn-sm" to="/console/risk">All matches</Link>}>
      <QueryState isPending={query.isPending} error={query.error}>
        {analysis && analysis.markets.length === 0 && <p className="empty-state">This match has no live market.</p>}
        <p className="muted small">What the house wins (green) or loses (red) on each outcome against your downline.</p>
        <div className="risk-markets">
          {analysis?.markets.map((market) => <MarketPosition key={market.market_id} market={market} />)}
        </div>
        {analysis && marketId !== null && (
          <MarketBets markets={analysis.markets} marketId={marketId} onMarket={setSelected} />
        )}
      </QueryState>
    </PageCard>
  );
}

function Pnl({ minor }: { minor: number }) {
  return <span className={`pnl ${pnlClass(minor)}`}>{formatMinorMoney(minor)}</span>;
}

/** One market's card: per runner, or a run ladder around a fancy's lines. */
function MarketPosition({ market }: { market: MarketAnalysis }) {
  const isFancy = market.market_type === 'fancy';
  return (
    <section className="risk-market" data-testid="risk-market" data-market-id={market.market_id}>
      <h2>
        {market.name} <span className="muted small">{market.status.replace('_', ' ')} · {market.bets} matched bets</span>
      </h2>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{isFancy ? 'Runs' : 'Runner'}</th>
            <th scope="col" className="num">House</th>
          </tr>
        </thead>
        <tbody>
          {isFancy
            ? runLadder(market.fancy, [market.line_no, market.line_yes]).map((row) => (
                <tr key={row.from} data-testid="risk-run" className={row.from === market.line_no || row.from === market.line_yes ? 'risk-line' : undefined}>
                  <td>{ladderLabel(row)}</td>
                  <td className="num"><Pnl minor={row.pnlMinor} /></td>
                </tr>
              ))
            : market.runners.map((runner) => (
                <tr key={runner.selection_id} data-testid="risk-runner">
                  <td>{runner.name}</td>
                  <td className="num"><Pnl minor={toMinor(runner.house_pnl)} /></td>
                </tr>
              ))}
        </tbody>
      </table>
    </section>
  );
}

/** The downline's bets on one market, filtered by user and side. */
function MarketBets({ markets, marketId, onMarket }: { markets: MarketAnalysis[]; marketId: number; onMarket: (id: number) => void }) {
  const [user, setUser] = useState('');
  const [side, setSide] = useState<BetSideFilter>('');
  const [page, setPage] = useState(1);
  const market = markets.find((m) => m.market_id === marketId);
  const isFancy = market?.market_type === 'fancy';
  const query = useQuery({
    queryKey: riskKeys.bets(marketId, user.trim(), side, page),
    queryFn: async () => dataOr(await listMarketBets(marketId, user, side, page), null),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  const filter = (apply: () => void) => {
    apply();
    setPage(1);
  };
  return (
    <section className="risk-bets" data-testid="risk-bets">
      <h2>Bets</h2>
      <div className="console-toolbar">
        <label>
          Market{' '}
          <select value={marketId} onChange={(e) => filter(() => onMarket(Number(e.target.value)))} data-testid="risk-bets-market">
            {markets.map((m) => (
              <option key={m.market_id} value={m.market_id}>{m.name}</option>
            ))}
          </select>
        </label>
        <label>
          User <input type="search" value={user} maxLength={50} onChange={(e) => filter(() => setUser(e.target.value))} data-testid="risk-bets-user" />
        </label>
        <label>
          Side{' '}
          <select value={side} onChange={(e) => filter(() => setSide(e.target.value as BetSideFilter))} data-testid="risk-bets-side">
            <option value="">All</option>
            {(isFancy ? ['yes', 'no'] : ['back', 'lay']).map((s) => (
              <option key={s} value={s}>{s[0].toUpperCase() + s.slice(1)}</option>
            ))}
          </select>
        </label>
      </div>
      <QueryState isPending={query.isPending} error={query.error}>
        <div className="table-wrap">
          <table className="data-table stack-on-phone" data-testid="risk-bets-table">
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Side</th>
                <th scope="col">{isFancy ? 'Line' : 'Runner'}</th>
                <th scope="col" className="num">{isFancy ? 'Rate' : 'Price'}</th>
                <th scope="col" className="num">Stake</th>
                <th scope="col" className="num">Matched</th>
                <th scope="col">Status</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {!data || data.rows.length === 0 ? (
                <EmptyRow colSpan={8}>No bets from your downline.</EmptyRow>
              ) : (
                data.rows.map((bet) => (
                  <tr key={bet.bet_id} data-testid="risk-bet-row" className={`bet-${bet.side}`}>
                    <td data-label="User"><Link to={`/console/account/${bet.user_id}`}>{bet.user_name}</Link></td>
                    <td data-label="Side">{bet.side}</td>
                    <td data-label={isFancy ? 'Line' : 'Runner'}>{isFancy ? bet.line : bet.selection_name}</td>
                    <td data-label={isFancy ? 'Rate' : 'Price'} className="num">{bet.price}</td>
                    <td data-label="Stake" className="num">{formatMoney(bet.stake)}</td>
                    <td data-label="Matched" className="num">{formatMoney(bet.matched)}</td>
                    <td data-label="Status">{bet.status}</td>
                    <td data-label="Time">{formatIstDateTime(bet.date)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        {data && data.total > data.limit && <Pagination page={page} total={data.total} limit={data.limit || RISK_BETS_PAGE_LIMIT} onPage={setPage} />}
      </QueryState>
    </section>
  );
}
