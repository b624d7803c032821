import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Modal } from '../../components/Modal';
import { QueryState } from '../../components/QueryState';
import { getExposureDetail } from './api';

/** My Market: one row per market the user has exposure on (spec §2). */
export function MyMarketModal({ onClose }: { onClose: () => void }) {
  const query = useQuery({ queryKey: ['exposureDetail'], queryFn: getExposureDetail, staleTime: 0 });
  const rows = (query.data ?? []).flatMap((row) =>
    (row.market_details?.length ? row.market_details : [{ sub_type: '', bet_count: 0 }]).map((market, index) => ({
      key: `${row.match_id ?? row.match_name}-${market.sub_type}-${index}`,
      row,
      market,
    })),
  );
  return (
    <Modal title="My Market" onClose={onClose} size="lg" testId="my-market-modal">
      <QueryState isPending={query.isPending} error={query.error}>
        <div className="table-wrap">
          <table className="data-table">
            <thead>
              <tr>
                <th>Event Type</th>
                <th>Event Name</th>
                <th>Match Name</th>
                <th>Trade</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={4} className="empty-cell">
                    No data available in table
                  </td>
                </tr>
              ) : (
                rows.map(({ key, row, market }) => (
                  <tr key={key}>
                    <td>{row.sport_name}</td>
                    <td>
                      {row.match_id ? (
                        <Link to={`/match/matchdetail/${row.match_id}`} onClick={onClose}>
                          {row.match_name}
                        </Link>
                      ) : (
                        row.match_name
                      )}
                    </td>
                    <td>{market.sub_type}</td>
                    <td>{market.bet_count}</td>
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
