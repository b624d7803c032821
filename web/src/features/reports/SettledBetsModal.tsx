import { useQuery } from '@tanstack/react-query';
import { Modal } from '../../components/Modal';
import { QueryState } from '../../components/QueryState';
import { betPrices, sideLabel } from '../../lib/bet-record';
import { formatIstDateTime, formatMoney } from '../../lib/format';
import { getSettledBets } from './api';

/** The bets a statement line settled: the caller's own bets of that market, with what each won or lost. */
export function SettledBetsModal({ marketId, title, onClose }: { marketId: number; title: string; onClose: () => void }) {
  const query = useQuery({ queryKey: ['report', 'settledBets', marketId], queryFn: () => getSettledBets(marketId) });
  const bets = query.data ?? [];
  return (
    <Modal title={title} onClose={onClose} size="lg" testId="settled-bets-modal">
      <QueryState isPending={query.isPending} error={query.error}>
        <div className="table-wrap">
          <table className="data-table stack-on-phone" data-testid="settled-bets-table">
            <thead>
              <tr>
                <th>Selection</th>
                <th>Type</th>
                <th>Matched</th>
                <th>Asked</th>
                <th>Matched stake</th>
                <th>Profit/Loss</th>
                <th>Placed</th>
              </tr>
            </thead>
            <tbody>
              {bets.length === 0 ? (
                <tr>
                  <td colSpan={7} className="empty-cell">
                    No bets of yours were settled here.
                  </td>
                </tr>
              ) : (
                bets.map((bet) => {
                  const { asked, matched } = betPrices(bet, bet.market_type);
                  const pnlMinor = Math.round(bet.pnl * 100);
                  return (
                    <tr key={bet.bet_id} data-testid="settled-bet" className={bet.side === 'back' || bet.side === 'yes' ? 'back' : 'lay'}>
                      <td data-label="Selection">{bet.selection_name ?? bet.market_name}</td>
                      <td data-label="Type">{sideLabel(bet.side)}</td>
                      <td data-label="Matched" className="num" data-testid="settled-bet-matched">
                        {matched ?? '-'}
                      </td>
                      <td data-label="Asked" className="num">{asked}</td>
                      <td data-label="Matched stake" className="num">{formatMoney(bet.matched)}</td>
                      <td data-label="Profit/Loss" className={`num ${pnlMinor > 0 ? 'pnl win' : pnlMinor < 0 ? 'pnl lose' : ''}`} data-testid="settled-bet-pnl">
                        {bet.status === 'void' ? 'Void' : formatMoney(bet.pnl)}
                      </td>
                      <td data-label="Placed">{formatIstDateTime(bet.date)}</td>
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
