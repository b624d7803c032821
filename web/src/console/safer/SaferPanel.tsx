import { useQuery } from '@tanstack/react-query';
import { dataOr } from '../../api/client';
import { QueryState } from '../../components/QueryState';
import { formatMoney } from '../../lib/format';
import { FIGURES_REFRESH_MS } from '../accounts/api';
import { accountSafer, saferAccountKey, type AccountSafer } from './api';
import { breakText, byKindAndPeriod, istText, leftText, limitText, pendingText, pendingWhen } from './words';
import './safer.css';

/**
 * A client's safer gambling on its console page: the limits in force, changes waiting, what is
 * left and a time-out or self-exclusion. Read-only by design: only the bettor sets limits, and
 * no one (the bettor, an agent or the operator) can lift or shorten a break, so there is
 * nothing here to press. What is left moves with every bet, hence the refresh.
 */
export function SaferPanel({ userId }: { userId: number }) {
  const query = useQuery({
    queryKey: saferAccountKey(userId),
    queryFn: async () => dataOr(await accountSafer(userId), null),
    refetchInterval: FIGURES_REFRESH_MS,
  });
  return (
    <section className="safer-panel" aria-labelledby="safer-panel-title" data-testid="safer-panel">
      <h2 id="safer-panel-title">Safer gambling</h2>
      <QueryState isPending={query.isPending} error={query.error}>
        {query.data && <SaferFacts safer={query.data} />}
      </QueryState>
    </section>
  );
}

function SaferFacts({ safer }: { safer: AccountSafer }) {
  const brk = safer.active_break;
  return (
    <>
      {brk && (
        <div className="safer-break" data-testid="safer-break">
          <p>
            <b>{breakText(brk)}</b>, since {istText(brk.started_at)}, until <b>{istText(brk.until)}</b>.
          </p>
          <p className="small">
            It cannot be lifted or shortened before then, by the bettor, an agent or the operator. They cannot log in, and no
            deposit can be made into the account; its balance can still be withdrawn.
          </p>
        </div>
      )}
      <div className="safer-columns">
        <div>
          <h3>Limits in force</h3>
          {safer.limits.length === 0 ? (
            <p className="muted" data-testid="safer-no-limits">None set.</p>
          ) : (
            <ul data-testid="safer-limits">
              {byKindAndPeriod(safer.limits).map((limit) => (
                <li key={`${limit.kind}-${limit.period ?? ''}`} data-testid="safer-limit">{limitText(limit)}</li>
              ))}
            </ul>
          )}
          {safer.operator_max_stake !== null && (
            <p className="muted small" data-testid="safer-operator-max-stake">
              Every bet on the site: at most {formatMoney(safer.operator_max_stake)}.
            </p>
          )}
        </div>
        {safer.left.length > 0 && (
          <div>
            <h3>Left</h3>
            <ul data-testid="safer-left">
              {byKindAndPeriod(safer.left).map((left) => (
                <li key={left.kind} data-testid="safer-left-line">{leftText(left)}</li>
              ))}
            </ul>
          </div>
        )}
        {safer.pending.length > 0 && (
          <div>
            <h3>Changes waiting</h3>
            <ul data-testid="safer-pending">
              {byKindAndPeriod(safer.pending).map((item) => (
                <li key={`${item.kind}-${item.period ?? ''}`} data-testid="safer-pending-line">
                  {pendingText(item)} <span className="muted">({pendingWhen(item)})</span>
                </li>
              ))}
            </ul>
            <p className="muted small">Until then the limit in force holds.</p>
          </div>
        )}
      </div>
      <p className="muted small" data-testid="safer-read-only">
        Read-only: only the bettor can set or change these, on their own Safer Gambling page.
      </p>
    </>
  );
}
