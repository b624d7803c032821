import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/Modal';
import { QueryState } from '../../components/QueryState';
import { betPrices, sideLabel } from '../../lib/bet-record';
import { formatIstDateTime, formatMoney } from '../../lib/format';
import { getSettledBets } from './api';

/** The bets a statement line settled: the caller's own bets of that market, with what each won or lost. */
export function SettledBetsModal({ marketId, title, onClose }: { marketId: number; title: string; onClose: () => void }) {
  const { t } = useTranslation('reports');
  const query = useQuery({ queryKey: ['report', 'settledBets', marketId], queryFn: () => getSettledBets(marketId) });
  const bets = query.data ?? [];
  return (
    <Modal title={title} onClose={onClose} size="lg" testId="settled-bets-modal">
      <QueryState isPending={query.isPending} error={query.error}>
        <div className="table-wrap">
          <table className="data-table stack-on-phone" data-testid="settled-bets-table">
            <thead>
              <tr>
                <th>{t('columns.selection')}</th>
                <th>{t('columns.type')}</th>
                <th>{t('columns.matched')}</th>
                <th>{t('columns.asked')}</th>
                <th>{t('columns.matchedStake')}</th>
                <th>{t('columns.profitLoss')}</th>
                <th>{t('columns.placed')}</th>
              </tr>
            </thead>
            <tbody>
              {bets.length === 0 ? (
                <tr>
                  <td colSpan={7} className="empty-cell">
                    {t('settledBets.empty')}
                  </td>
                </tr>
              ) : (
                bets.map((bet) => {
                  const { asked, matched } = betPrices(bet, bet.market_type);
                  const pnlMinor = Math.round(bet.pnl * 100);
                  return (
                    <tr key={bet.bet_id} data-testid="settled-bet" className={bet.side === 'back' || bet.side === 'yes' ? 'back' : 'lay'}>
                      <td data-label={t('columns.selection')}>{bet.selection_name ?? bet.market_name}</td>
                      <td data-label={t('columns.type')}>{sideLabel(bet.side)}</td>
                      <td data-label={t('columns.matched')} className="num" data-testid="settled-bet-matched">
                        {matched ?? '-'}
                      </td>
                      <td data-label={t('columns.asked')} className="num">{asked}</td>
                      <td data-label={t('columns.matchedStake')} className="num">{formatMoney(bet.matched)}</td>
                      <td data-label={t('columns.profitLoss')} className={`num ${pnlMinor > 0 ? 'pnl win' : pnlMinor < 0 ? 'pnl lose' : ''}`} data-testid="settled-bet-pnl">
                        {bet.status === 'void' ? t('status.void') : formatMoney(bet.pnl)}
                      </td>
                      <td data-label={t('columns.placed')}>{formatIstDateTime(bet.date)}</td>
                    </tr>
                  );
                })
              )}
            </tbody>
          </table>
        </div>
      </QueryState>
    </Modal>
  );
}
