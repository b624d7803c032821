import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MarketBook } from '../../api/match-stream';
import { formatMoney } from '../../lib/format';
import { useRules, type RulesTopic } from '../../lib/rules-topic';
import type { PriceSize, RunnerCard } from './api';
import { formatSize } from '../../lib/size';
import { LadderModal } from './LadderModal';
import { NonRunnerBadge, NonRunnerCell, PriceCell, RunnerPnl, StatusOverlay } from './PriceCell';
import { CashOutBar } from './CashOut';
import type { Pick } from './selection';
import { sideLabel } from '../../lib/bet-record';

const DEPTH = 3;

/**
 * An exchange market (match odds, racing win or place): per runner the three best prices to
 * back (blue, best nearest the middle) and to lay (pink), with the money available at each.
 * A market not taking bets shows its status as a band across each runner's prices, which are
 * hidden under it (never a label printed over numbers). A withdrawn runner (a non-runner) keeps
 * its row, greyed and labelled, with empty boxes that take no clicks. Beside each running
 * runner's name a button opens its full ladder and price chart ({@link LadderModal}), whose
 * prices go on the same slip. On a race card each runner's draw, jockey and trainer show under
 * its name, as far as they are known.
 */
export function ExchangeMarket({
  market,
  projection,
  cards,
  onPick,
}: {
  market: MarketBook;
  projection?: Map<number, number>;
  /** A race's runner cards by selection id: what is known of each runner, shown under its name. */
  cards?: Map<number, RunnerCard>;
  onPick: (pick: Pick) => void;
}) {
  const { t } = useTranslation('betting');
  const [ladderOf, setLadderOf] = useState<number | null>(null);
  return (
    <section className="market" data-testid="market" data-market-type={market.type} data-market-id={market.market_id}>
      <MarketHead market={market} />
      <CashOutBar market={market} />
      <div className="market-rows">
        <div className="runner-row head" aria-hidden="true">
          <span className="runner-name" />
          <span className="depth" />
          <span className="depth" />
          <span className="col-head back">{sideLabel('back')}</span>
          <span className="col-head lay">{sideLabel('lay')}</span>
          <span className="depth" />
          <span className="depth" />
        </div>
        {market.runners.map((runner) => {
          if (runner.removed) {
            return (
              <div className="runner-row removed" key={runner.selection_id} data-testid="runner" data-selection-id={runner.selection_id} data-removed="true">
                <span className="runner-name">
                  <b>{runner.name}</b>
                  <NonRunnerBadge />
                </span>
                <div className="row-prices">
                  {(['depth', 'depth', 'best'] as const).map((c, i) => <NonRunnerCell key={`b${i}`} tone="back" className={c} />)}
                  {(['best', 'depth', 'depth'] as const).map((c, i) => <NonRunnerCell key={`l${i}`} tone="lay" className={c} />)}
                  <StatusOverlay status={market.status} />
                </div>
              </div>
            );
          }
          const backs = levels(runner.back);
          const lays = levels(runner.lay);
          return (
            <div className="runner-row" key={runner.selection_id} data-testid="runner" data-selection-id={runner.selection_id}>
              <span className="runner-name">
                <span className="runner-title">
                  <b>{runner.name}</b>
                  <LadderButton runnerName={runner.name} onOpen={() => setLadderOf(runner.selection_id)} />
                </span>
                <RunnerCardLine card={cards?.get(runner.selection_id)} />
                <RunnerPnl position={runner.position} projected={projection?.get(runner.selection_id)} />
              </span>
              <div className="row-prices">
                {[2, 1, 0].map((i) => (
                  <PriceCell
                    key={`b${i}`}
                    tone="back"
                    className={i === 0 ? 'best' : 'depth'}
                    price={backs[i] ? String(backs[i].price) : undefined}
                    sub={backs[i] ? formatSize(backs[i].size) : undefined}
                    label={backs[i] ? t('price.backAt', { runner: runner.name, price: backs[i].price }) : t('price.back', { runner: runner.name })}
                    onPick={backs[i] || i === 0 ? () => onPick({ marketId: market.market_id, selectionId: runner.selection_id, side: 'back', price: backs[i]?.price }) : undefined}
                    testId={i === 0 ? 'best-back' : undefined}
                  />
                ))}
                {[0, 1, 2].map((i) => (
                  <PriceCell
                    key={`l${i}`}
                    tone="lay"
                    className={i === 0 ? 'best' : 'depth'}
                    price={lays[i] ? String(lays[i].price) : undefined}
                    sub={lays[i] ? formatSize(lays[i].size) : undefined}
                    label={lays[i] ? t('price.layAt', { runner: runner.name, price: lays[i].price }) : t('price.lay', { runner: runner.name })}
                    onPick={lays[i] || i === 0 ? () => onPick({ marketId: market.market_id, selectionId: runner.selection_id, side: 'lay', price: lays[i]?.price }) : undefined}
                    testId={i === 0 ? 'best-lay' : undefined}
                  />
                ))}
                <StatusOverlay status={market.status} />
              </div>
            </div>
          );
        })}
      </div>
      {ladderOf !== null && <LadderModal market={market} selectionId={ladderOf} onPick={onPick} onClose={() => setLadderOf(null)} />}
    </section>
  );
}

/** The small button beside a runner's name that opens its ladder and chart. */
function LadderButton({ runnerName, onOpen }: { runnerName: string; onOpen: () => void }) {
  const { t } = useTranslation('betting');
  return (
    <button type="button" className="ladder-btn" aria-label={t('runner.ladderOf', { runner: runnerName })} title={t('runner.ladderTitle')} onClick={onOpen} data-testid="ladder-open">
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <path d="M2 3h12M2 6.5h12M2 10h12M2 13.5h12" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        <path d="M5 1.5v13M11 1.5v13" stroke="currentColor" strokeWidth="1.2" opacity="0.55" />
      </svg>
    </button>
  );
}

/** "Draw 4 · J: R. Moore · T: A. O'Brien": only what the race card gives; nothing without one. */
function RunnerCardLine({ card }: { card: RunnerCard | undefined }) {
  const { t } = useTranslation('betting');
  if (!card) return null;
  const parts = [
    card.draw !== null ? { key: 'draw', text: t('runner.draw', { draw: card.draw }), title: t('runner.drawTitle') } : null,
    card.jockey ? { key: 'jockey', text: t('runner.jockey', { name: card.jockey }), title: t('runner.jockeyTitle') } : null,
    card.trainer ? { key: 'trainer', text: t('runner.trainer', { name: card.trainer }), title: t('runner.trainerTitle') } : null,
  ].filter((part) => part !== null);
  if (parts.length === 0) return null;
  return (
    <span className="runner-card small muted" data-testid="runner-card">
      {parts.map((part) => (
        <span key={part.key} title={part.title} data-testid={`runner-${part.key}`}>
          {part.text}
        </span>
      ))}
    </span>
  );
}

function levels(side: PriceSize[]): (PriceSize | undefined)[] {
  return Array.from({ length: DEPTH }, (_, i) => side[i]);
}

/** A market's title bar: name, what an exchange market has matched, its own Rules, limits, and the in-play bet delay. */
export function MarketHead({ market, title }: { market: MarketBook; title?: string }) {
  const { t } = useTranslation('betting');
  return (
    <header className="market-head">
      <h2>
        {title ?? market.name}
        {market.total_matched !== null && (
          <span className="market-matched" data-testid="market-matched">
            {t('market.matched', { amount: formatMoney(market.total_matched) })}
          </span>
        )}
      </h2>
      <span className="market-meta" data-testid="market-limits">
        {market.in_play && market.bet_delay_s > 0 ? <span className="badge delay">{t('market.delay', { seconds: market.bet_delay_s })}</span> : null}
        {t('market.limits', { min: formatMoney(market.min_stake), max: formatMoney(market.max_stake) })}
        <MarketRulesButton topic={{ marketType: market.type, marketName: market.name, commissionBp: market.commission_bp }} />
      </span>
    </header>
  );
}

/** Opens the rules on this market's own tab (its sport's, or Bookmaker, or Fancy), with its commission. */
export function MarketRulesButton({ topic }: { topic: RulesTopic }) {
  const { t } = useTranslation('betting');
  const rules = useRules();
  return (
    <button type="button" className="market-rules" onClick={() => rules.open(topic)} aria-label={topic.marketName === undefined ? t('market.rulesOfThis') : t('market.rulesOf', { market: topic.marketName })} data-testid="market-rules">
      {t('market.rules')}
    </button>
  );
}
