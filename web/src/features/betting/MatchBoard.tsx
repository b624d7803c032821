import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MarketBook } from '../../api/match-stream';
import type { MarketType, PlaceBetResult, RunnerCard } from './api';
import { outcomeNow } from './bet-outcome';
import { BetSlip } from './BetSlip';
import { BookmakerMarket } from './BookmakerMarket';
import { ExchangeMarket } from './ExchangeMarket';
import { FancyMarkets } from './FancyMarkets';
import { useIsNarrow } from '../../hooks/useIsNarrow';
import { OpenBetsPanel, useOpenBets, type OpenBetsTab } from './OpenBetsPanel';
import { sideLabel } from '../../lib/bet-record';
import { houseText, isNonRunner, placeBody, slipBet, slipFor, type Pick, type SlipState } from './selection';
import { useQueryClient } from '@tanstack/react-query';
import { refreshBalanceNow } from '../../hooks/useBalance';
import { formatMinorMoney } from '../../lib/format';
import { decimalText, toMinor } from '../../lib/money';
import { matchDetailKey, openBetsKey } from './api';
import { OneClickBar, useOneClick } from './OneClickBar';
import { usePreferencesRead } from './preferences';
import { QuickBetSettings } from './QuickBetSettings';
import { projectPositions } from './slip-math';

const EXCHANGE_ORDER: MarketType[] = ['match_odds', 'win', 'place'];

/**
 * A match's markets with the bet slip and the caller's open bets beside them. On a phone the
 * slip rises from the bottom, and the open bets are a tab above the markets ("Open Bets (3)"),
 * found once rather than below every fancy line. While a stake is typed, each runner of the
 * slip's market shows its P&L after the bet.
 */
export function MatchBoard({
  matchId,
  markets,
  runnerCards = [],
  initialPick,
  empty,
}: {
  matchId: number;
  markets: MarketBook[];
  /** A race's runner cards (draw, jockey, trainer), shown under the runners' names. */
  runnerCards?: RunnerCard[];
  initialPick?: Pick;
  empty?: ReactNode;
}) {
  const { t } = useTranslation('betting');
  const [slip, setSlip] = useState<SlipState | null>(() => {
    const market = initialPick && markets.find((m) => m.market_id === initialPick.marketId);
    // A link to a withdrawn runner opens nothing: it takes no bets.
    return initialPick && market && !isNonRunner(market, initialPick) ? slipFor(initialPick, market) : null;
  });
  const [placed, setPlaced] = useState<{ result: PlaceBetResult; atMs: number } | null>(null);
  const narrow = useIsNarrow();
  const [phoneView, setPhoneView] = useState<'markets' | 'bets'>('markets');
  const [betsTab, setBetsTab] = useState<OpenBetsTab>('matched');
  const openBets = useOpenBets(matchId);
  const openBetCount = (openBets.data?.matched.length ?? 0) + (openBets.data?.unmatched.length ?? 0);
  const showBets = narrow && phoneView === 'bets';
  const cards = new Map(runnerCards.map((card) => [card.selection_id, card]));
  // The outcome line follows the bet as the open bets show it now, not as it was placed.
  const outcome = placed ? outcomeNow(placed.result, placed.atMs, openBets.data, openBets.dataUpdatedAt) : null;

  const slipMarket = slip ? markets.find((m) => m.market_id === slip.pick.marketId) : undefined;
  const bet = slip && slipMarket ? slipBet(slipMarket, slip) : null;
  const projection = bet && slipMarket && slipMarket.type !== 'fancy' ? projectPositions(slipMarket.runners, bet) : undefined;
  const projectionFor = (market: MarketBook) => (market.market_id === slipMarket?.market_id ? projection : undefined);

  const queryClient = useQueryClient();
  const { preferences, read: preferencesRead } = usePreferencesRead();
  const oneClick = useOneClick((result) => {
    if (result) setPlaced({ result, atMs: Date.now() });
    void refreshBalanceNow(queryClient);
    void queryClient.invalidateQueries({ queryKey: matchDetailKey(matchId), exact: true });
    void queryClient.invalidateQueries({ queryKey: openBetsKey(matchId), exact: true });
  });

  /** One-click betting: the pick held at the one-click stake, when it names a price to bet at. */
  const holdOneClick = (next: Pick): boolean => {
    const market = markets.find((m) => m.market_id === next.marketId);
    const stake = preferences.one_click_stake;
    if (!preferences.one_click || stake === null || !market || isNonRunner(market, next)) return false;
    const state = { ...slipFor(next, market), stakeText: decimalText(toMinor(stake)) };
    const exchangeMarket = market.type !== 'bookmaker' && market.type !== 'fancy';
    const price = exchangeMarket ? (next.price ? state.oddsText : null) : state.taken && houseText(state.taken);
    if (!price) return false;
    oneClick.hold({
      label: t('oneClick.bet', { side: sideLabel(next.side), runner: runnerName(market, state), price, amount: formatMinorMoney(toMinor(stake)) }),
      body: placeBody(market, state, preferences.accept_rate_changes),
    });
    return true;
  };

  const pick = (next: Pick) => {
    setPlaced(null);
    if (holdOneClick(next)) {
      setSlip(null);
      return;
    }
    // A stake already typed carries over to the new pick.
    // A house market's rate is taken as posted at this click.
    setSlip((current) => ({ ...slipFor(next, markets.find((m) => m.market_id === next.marketId)), stakeText: current?.stakeText ?? '' }));
  };

  const exchange = markets
    .filter((m) => EXCHANGE_ORDER.includes(m.type))
    .sort((a, b) => EXCHANGE_ORDER.indexOf(a.type) - EXCHANGE_ORDER.indexOf(b.type));
  const bookmakers = markets.filter((m) => m.type === 'bookmaker');
  const fancies = markets.filter((m) => m.type === 'fancy');

  const runnerName = (market: MarketBook, state: SlipState) =>
    market.type === 'fancy' ? market.name : (market.runners.find((r) => r.selection_id === state.pick.selectionId)?.name ?? '');

  return (
    <div className="match-board" data-testid="match-board">
      {narrow && (
        <div className="tabs compact board-tabs" role="tablist" aria-label={t('board.tabsLabel')}>
          <button type="button" role="tab" aria-selected={!showBets} className={showBets ? undefined : 'active'} onClick={() => setPhoneView('markets')} data-testid="board-markets-tab">
            {t('board.marketsTab')}
          </button>
          <button type="button" role="tab" aria-selected={showBets} className={showBets ? 'active' : undefined} onClick={() => setPhoneView('bets')} data-testid="board-bets-tab">
            {t('board.openBetsTab', { count: openBetCount })}
          </button>
        </div>
      )}
      {showBets && <OpenBetsPanel matchId={matchId} markets={markets} tab={betsTab} onTab={setBetsTab} />}
      {!showBets && (
        <div className="board-markets">
          {markets.length === 0 && (empty ?? <p className="empty-state">{t('board.noMarkets')}</p>)}
          {exchange.map((market) => (
            <ExchangeMarket key={market.market_id} market={market} projection={projectionFor(market)} cards={cards} onPick={pick} />
          ))}
          {bookmakers.map((market) => (
            <BookmakerMarket key={market.market_id} market={market} projection={projectionFor(market)} onPick={pick} />
          ))}
          {fancies.length > 0 && <FancyMarkets markets={fancies} onPick={pick} />}
        </div>
      )}
      <aside className="board-side">
        <section className={`slip-panel${(slip && slipMarket) || oneClick.held ? ' active' : ''}`} data-testid="slip-panel">
          <header className="market-head">
            <h2>{t('board.betSlip')}</h2>
          </header>
          {/* Shown once the stored preferences are read: its fields start from them. */}
          {preferencesRead && <QuickBetSettings preferences={preferences} />}
          {oneClick.held && <OneClickBar held={oneClick.held} onUndo={oneClick.undo} />}
          {slip && slipMarket ? (
            <BetSlip
              key={`${slip.pick.marketId}-${slip.pick.selectionId ?? ''}-${slip.pick.side}`}
              market={slipMarket}
              runnerName={runnerName(slipMarket, slip)}
              slip={slip}
              onChange={setSlip}
              onClose={() => setSlip(null)}
              onPlaced={(result) => {
                setPlaced({ result, atMs: Date.now() });
                setSlip(null);
              }}
            />
          ) : oneClick.held ? null : (
            <p className="empty-state small">{preferences.one_click ? t('board.oneClickOn') : t('board.tapPrice')}</p>
          )}
          {outcome && (
            <p className={`notice bet-outcome ${outcome.status === 'matched' ? 'success' : ''}`} data-testid="bet-outcome" data-status={outcome.status}>
              {outcome.text}
            </p>
          )}
        </section>
        {!narrow && <OpenBetsPanel matchId={matchId} markets={markets} tab={betsTab} onTab={setBetsTab} />}
      </aside>
    </div>
  );
}
