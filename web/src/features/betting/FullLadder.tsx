import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/format';
import { formatOdds } from './ladder';
import { focusIndex, ladderAmount, mostTraded, type LadderRow } from './ladder-rows';
import { sideLabel } from '../../lib/bet-record';

/**
 * A runner's full ladder: all 350 steps, lowest price at the top, each with the caller's own
 * unmatched backs, the money to back (blue), the price, the money to lay (pink), the caller's
 * own unmatched lays and what traded there (a bar against the most traded price). A click on a
 * blue or pink box puts that price on the slip to back or to lay. It opens on the last traded
 * price (else between the best prices) and keeps where the bettor scrolled as it refreshes.
 */
export function FullLadder({
  rows,
  runnerName,
  onPick,
}: {
  rows: LadderRow[];
  runnerName: string;
  onPick: (side: 'back' | 'lay', price: number) => void;
}) {
  const { t } = useTranslation('betting');
  const scroller = useRef<HTMLDivElement>(null);
  const focus = focusIndex(rows);
  const centred = useRef(false);
  const most = mostTraded(rows) || 1;

  const centre = () => {
    const box = scroller.current;
    const row = box?.querySelectorAll<HTMLElement>('[data-testid="ladder-row"]')[focus];
    if (box && row) box.scrollTop = row.offsetTop - box.clientHeight / 2 + row.offsetHeight / 2;
  };
  useLayoutEffect(() => {
    if (centred.current) return;
    centred.current = true;
    centre();
  });

  return (
    <div className="full-ladder" data-testid="full-ladder">
      <div className="ladder-scroll" ref={scroller} data-testid="ladder-scroll">
        <div className="ladder-row head" aria-hidden="true">
          <span>{t('ladder.mine')}</span>
          <span className="back">{sideLabel('back')}</span>
          <span>{t('ladder.odds')}</span>
          <span className="lay">{sideLabel('lay')}</span>
          <span>{t('ladder.mine')}</span>
          <span>{t('ladder.traded')}</span>
        </div>
        {rows.map((row) => {
          const odds = formatOdds(row.hundredths);
          return (
            <div key={row.hundredths} className={`ladder-row${row.last ? ' last' : ''}`} data-testid="ladder-row" data-price={odds} data-last={row.last || undefined}>
              <span className="mine back" data-testid="ladder-my-back" title={row.myBack ? t('ladder.myBacks', { amount: formatMoney(row.myBack) }) : undefined}>
                {ladderAmount(row.myBack)}
              </span>
              <button type="button" className={`ladder-cell back${row.backSize ? ' offered' : ''}`} aria-label={t('price.backAt', { runner: runnerName, price: odds })} onClick={() => onPick('back', row.price)} data-testid="ladder-back">
                {ladderAmount(row.backSize)}
              </button>
              <span className="ladder-price">{odds}</span>
              <button type="button" className={`ladder-cell lay${row.laySize ? ' offered' : ''}`} aria-label={t('price.layAt', { runner: runnerName, price: odds })} onClick={() => onPick('lay', row.price)} data-testid="ladder-lay">
                {ladderAmount(row.laySize)}
              </button>
              <span className="mine lay" data-testid="ladder-my-lay" title={row.myLay ? t('ladder.myLays', { amount: formatMoney(row.myLay) }) : undefined}>
                {ladderAmount(row.myLay)}
              </span>
              <span className="traded" data-testid="ladder-traded">
                {row.traded > 0 && <span className="traded-bar" style={{ width: `${Math.max(4, (row.traded / most) * 100)}%` }} aria-hidden="true" />}
                <span className="traded-amount">{ladderAmount(row.traded)}</span>
              </span>
            </div>
          );
        })}
      </div>
      <div className="ladder-foot">
        <button type="button" className="btn btn-small" onClick={centre} data-testid="ladder-centre">
          {t('ladder.centre')}
        </button>
      </div>
    </div>
  );
}
