import type { MarketBook } from '../../api/match-stream';
import { MarketHead } from './ExchangeMarket';
import { NonRunnerBadge, NonRunnerCell, PriceCell, RunnerPnl, StatusOverlay } from './PriceCell';
import type { Pick } from './selection';

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
  return (
    <section className="market bookmaker" data-testid="market" data-market-type="bookmaker" data-market-id={market.market_id}>
      <MarketHead market={market} />
      <div className="market-rows">
        <div className="runner-row head two" aria-hidden="true">
          <span className="runner-name" />
          <span className="col-head back">Back</span>
          <span className="col-head lay">Lay</span>
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
                  label={`Back ${runner.name}${back ? ` at rate ${back.price}` : ''}`}
                  disabled={!back}
                  onPick={() => onPick({ marketId: market.market_id, selectionId: runner.selection_id, side: 'back' })}
                  testId="bm-back"
                />
                <PriceCell
                  tone="lay"
                  className="best"
                  price={lay ? String(lay.price) : undefined}
                  label={`Lay ${runner.name}${lay ? ` at rate ${lay.price}` : ''}`}
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
