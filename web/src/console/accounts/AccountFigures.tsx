import { formatMoney } from '../../lib/format';
import type { DownlineRow } from './api';

/** A partnership in percent as the console shows it: "70%", "12.5%". */
export function shareText(partnership: number): string {
  return `${Number(partnership.toFixed(2))}%`;
}

/**
 * An account's figures for a dialog or a header: its own chips, and for an agent its branch's
 * (the agent and everyone under it) and its partnership. Read from the latest list or header,
 * which the console reads again every few seconds, so an open dialog never shows old exposure.
 */
export function AccountFigures({ user }: { user: DownlineRow }) {
  return (
    <dl className="account-figures small" data-testid="account-figures">
      <div>
        <dt>Balance</dt>
        <dd data-testid="figures-balance">{formatMoney(user.balance)}</dd>
      </div>
      <div>
        <dt>Exposure now</dt>
        <dd data-testid="figures-exposure">{formatMoney(user.exposure)}</dd>
      </div>
      <div>
        <dt>Available</dt>
        <dd>{formatMoney(user.available)}</dd>
      </div>
      {user.role === 'agent' && (
        <>
          <div>
            <dt>Branch balance</dt>
            <dd data-testid="figures-branch-balance">{formatMoney(user.branch_balance)}</dd>
          </div>
          <div>
            <dt>Branch exposure</dt>
            <dd data-testid="figures-branch-exposure">{formatMoney(user.branch_exposure)}</dd>
          </div>
          <div>
            <dt>Branch available</dt>
            <dd>{formatMoney(user.branch_available)}</dd>
          </div>
          <div>
            <dt>Partnership</dt>
            <dd data-testid="figures-partnership">{shareText(user.partnership)}</dd>
          </div>
        </>
      )}
      <div>
        <dt>{user.role === 'agent' ? 'Branch P&L (+: they won)' : 'P&L (+: they won)'}</dt>
        <dd>{formatMoney(user.pnl)}</dd>
      </div>
    </dl>
  );
}
