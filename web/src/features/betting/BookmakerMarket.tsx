import { useTranslation } from 'react-i18next';
import type { MarketBook } from '../../api/match-stream';
import { MarketHead } from './ExchangeMarket';
import { NonRunnerBadge, NonRunnerCell, PriceCell, RunnerPnl, StatusOverlay } from './PriceCell';
import { CashOutBar } from './CashOut';
import type { Pick } from './selection';
import { sideLabel } from '../../lib/bet-record';

/**
 * A bookmaker market: the house's back and lay rate per runner (45 pays 45 per 100). A withdrawn
 * runner (a non-runner) keeps its row, greyed and labelled, with empty boxes that take no clicks.
 */
export function BookmakerMarket({
  market,
  projection,
  onPick,
}: {
  market: MarketBook;
  projection?: Map<number, number>;
  onPick: (pick: Pick) => void;
}) {
  const { t } = useTranslation('betting');
  return (
    <section className="market bookmaker" data-testid="market" data-market-type="bookmaker" data-market-id={market.market_id}>
      <MarketHead market={market} />
      <CashOutBar market={market} />
      <div className="market-rows">
        <div className="runner-row head two" aria-hidden="true">
          <span className="runner-name" />
          <span className="col-head back">{sideLabel('back')}</span>
          <span className="col-head lay">{sideLabel('lay')}</span>
        </div>
        {market.runners.map((runner) => {
          if (runner.removed) {
            return (
              <div className="runner-row two removed" key={runner.selection_id} data-testid="runner" data-selection-id={runner.selection_id} data-removed="true">
                <span className="runner-name">
                  <b>{runner.name}</b>
                  <NonRunnerBadge />
                </span>
                <div className="row-prices">
                  <NonRunnerCell tone="back" className="best" />
                  <NonRunnerCell tone="lay" className="best" />
                  <StatusOverlay status={market.status} />
                </div>
              </div>
            );
          }
          const back = runner.back[0];
          const lay = runner.lay[0];
          return (
            <div className="runner-row two" key={runner.selection_id} data-testid="runner" data-selection-id={runner.selection_id}>
              <span className="runner-name">
                <b>{runner.name}</b>
                <RunnerPnl position={runner.position} projected={projection?.get(runner.selection_id)} />
              </span>
              <div className="row-prices">
                <PriceCell
                  tone="back"
                  className="best"
                  price={back ? String(back.price) : undefined}
                  label={back ? t('price.backAtRate', { runner: runner.name, rate: back.price }) : t('price.back', { runner: runner.name })}
                  disabled={!back}
                  onPick={() => onPick({ marketId: market.market_id, selectionId: runner.selection_id, side: 'back' })}
                  testId="bm-back"
                />
                <PriceCell
                  tone="lay"
                  className="best"
                  price={lay ? String(lay.price) : undefined}
                  label={lay ? t('price.layAtRate', { runner: runner.name, rate: lay.price }) : t('price.lay', { runner: runner.name })}
                  disabled={!lay}
                  onPick={() => onPick({ marketId: market.market_id, selectionId: runner.selection_id, side: 'lay' })}
                  testId="bm-lay"
                />
                <StatusOverlay status={market.status} />
              </div>
            </div>
          );
        })}
      </div>
    </section>
  );
}
