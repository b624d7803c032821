import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMinorMoney, formatMoney } from '../../lib/format';
import type { MarketBook } from '../../api/match-stream';
import type { FancyRange } from './api';
import { FancyBookModal } from './FancyBook';
import { MarketRulesButton } from './ExchangeMarket';
import { PriceCell, StatusOverlay } from './PriceCell';
import type { Pick } from './selection';
import { sideLabel } from '../../lib/bet-record';

/**
 * Fancy (session) markets: per line, No (pink: under the line) and Yes (blue: at or over it)
 * with the line and its rate, the limits, the caller's position on the row (the worst outcome
 * of their bets on it) and their book per run range behind Book.
 */
export function FancyMarkets({ markets, onPick }: { markets: MarketBook[]; onPick: (pick: Pick) => void }) {
  const { t } = useTranslation('betting');
  const [bookOf, setBookOf] = useState<number | null>(null);
  const shown = markets.find((m) => m.market_id === bookOf);
  return (
    <section className="market fancy" data-testid="fancy-markets">
      <header className="market-head">
        <h2>{t('fancy.title')}</h2>
        <span className="market-meta">
          <MarketRulesButton topic={{ marketType: 'fancy', marketName: t('fancy.title'), ...sharedCommission(markets) }} />
        </span>
      </header>
      <div className="fancy-row head" aria-hidden="true">
        <span className="runner-name" />
        <span className="fancy-prices">
          <span className="col-head lay">{sideLabel('no')}</span>
          <span className="col-head back">{sideLabel('yes')}</span>
        </span>
        <span className="fancy-limits" />
      </div>
      {markets.map((market) => {
        return (
          <div className="fancy-row" key={market.market_id} data-testid="fancy-row" data-market-id={market.market_id}>
            <span className="runner-name">
              <b>{market.name}</b>
              <FancyPosition book={market.book} />
              <button type="button" className="book-btn" onClick={() => setBookOf(market.market_id)} data-testid="fancy-book-button">
                {t('fancy.book')}
              </button>
            </span>
            <div className="fancy-prices">
              <PriceCell
                tone="lay"
                className="best"
                price={market.line_no === null ? undefined : String(market.line_no)}
                sub={market.rate_no === null ? undefined : String(market.rate_no)}
                label={market.line_no === null ? t('price.no', { name: market.name }) : t('price.noAt', { name: market.name, line: market.line_no, rate: market.rate_no })}
                disabled={market.line_no === null}
                onPick={() => onPick({ marketId: market.market_id, side: 'no' })}
                testId="fancy-no"
              />
              <PriceCell
                tone="back"
                className="best"
                price={market.line_yes === null ? undefined : String(market.line_yes)}
                sub={market.rate_yes === null ? undefined : String(market.rate_yes)}
                label={market.line_yes === null ? t('price.yes', { name: market.name }) : t('price.yesAt', { name: market.name, line: market.line_yes, rate: market.rate_yes })}
                disabled={market.line_yes === null}
                onPick={() => onPick({ marketId: market.market_id, side: 'yes' })}
                testId="fancy-yes"
              />
              <StatusOverlay status={market.status} />
            </div>
            <span className="fancy-limits small muted">
              {t('market.min', { amount: formatMoney(market.min_stake) })}
              <br />
              {t('market.max', { amount: formatMoney(market.max_stake) })}
            </span>
          </div>
        );
      })}
      {shown && <FancyBookModal name={shown.name} book={shown.book} onClose={() => setBookOf(null)} />}
    </section>
  );
}

/**
 * The caller's position on a fancy line as one figure: the worst of their run-range book, what
 * the line can cost them (its exposure, as My Market counts it), or the least it wins. None
 * without bets on the line.
 */
export function FancyPosition({ book }: { book: FancyRange[] }) {
  const { t } = useTranslation('betting');
  if (book.length === 0) return null;
  const worstMinor = Math.min(...book.map((range) => Math.round(range.pnl * 100)));
  return (
    <span className="runner-pnl" title={t('fancy.positionTitle')}>
      <span className={worstMinor < 0 ? 'pnl lose' : worstMinor > 0 ? 'pnl win' : 'pnl'} data-testid="fancy-position">
        {formatMinorMoney(worstMinor)}
      </span>
    </span>
  );
}

/** The fancy lines' commission when they share one (each line is a market with its own). */
function sharedCommission(markets: MarketBook[]): { commissionBp?: number } {
  const rates = new Set(markets.map((m) => m.commission_bp));
  return rates.size === 1 ? { commissionBp: markets[0].commission_bp } : {};
}
