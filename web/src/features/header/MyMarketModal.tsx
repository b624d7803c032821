import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Modal } from '../../components/Modal';
import { QueryState } from '../../components/QueryState';
import { formatMoney } from '../../lib/format';
import { getExposureDetail } from './api';

/**
 * My Market (spec §2): one row per market the user has exposure on, in the spec's four columns
 * (Event Type: the sport, Event Name: the match, Match Name: the market, Trade: the bets on
 * it) and the market's exposure beside them. A row opens its match.
 */
export function MyMarketModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('header');
  const navigate = useNavigate();
  const query = useQuery({ queryKey: ['exposureDetail'], queryFn: getExposureDetail, staleTime: 0 });
  const rows = (query.data ?? []).flatMap((row) => row.market_details.map((market) => ({ key: market.market_id, row, market })));
  const open = (matchId: number) => {
    onClose();
    void navigate(`/match/matchdetail/${matchId}`);
  };
  return (
    <Modal title={t('myMarket.title')} onClose={onClose} size="lg" testId="my-market-modal">
      <QueryState isPending={query.isPending} error={query.error}>
        <div className="table-wrap">
          <table className="data-table stack-on-phone">
            <thead>
              <tr>
                <th>{t('myMarket.eventType')}</th>
                <th>{t('myMarket.eventName')}</th>
                <th>{t('myMarket.matchName')}</th>
                <th>{t('myMarket.trade')}</th>
                <th>{t('myMarket.exposure')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={5} className="empty-cell">
                    {t('myMarket.empty')}
                  </td>
                </tr>
              ) : (
                rows.map(({ key, row, market }) => (
                  <tr
                    key={key}
                    className="clickable-row"
                    tabIndex={0}
                    role="link"
                    aria-label={`${row.match_name} · ${market.sub_type}`}
                    onClick={() => open(row.match_id)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') open(row.match_id);
                    }}
                    data-testid="my-market-row"
                  >
                    <td data-label={t('myMarket.eventType')}>{row.sport_name}</td>
                    <td data-label={t('myMarket.eventName')}>{row.match_name}</td>
                    <td data-label={t('myMarket.matchName')}>{market.sub_type}</td>
                    <td data-label={t('myMarket.trade')} className="num">{market.bet_count}</td>
                    <td data-label={t('myMarket.exposure')} className="num pnl lose" data-testid="my-market-exposure">
                      {formatMoney(market.exposure)}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </QueryState>
    </Modal>
  );
}
