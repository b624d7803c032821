import { useTranslation } from 'react-i18next';
import { useFlash } from '../../hooks/useFlash';
import { formatMinorMoney } from '../../lib/format';

/**
 * One price box: blue for backing (and fancy Yes), pink for laying (and No). Empty boxes of
 * the best level still open the slip, so a bettor can ask for a price nobody offers yet.
 */
export function PriceCell({
  tone,
  price,
  sub,
  label,
  disabled,
  onPick,
  className = '',
  testId,
}: {
  tone: 'back' | 'lay';
  price?: string;
  sub?: string;
  label: string;
  disabled?: boolean;
  onPick?: () => void;
  className?: string;
  testId?: string;
}) {
  const flash = useFlash(`${price ?? ''}|${sub ?? ''}`);
  const classes = `price-cell ${tone}${flash ? ' flash' : ''}${price ? '' : ' empty'} ${className}`.trim();
  if (!onPick) {
    return (
      <div className={classes} aria-label={label} data-testid={testId}>
        <span className="price">{price ?? '-'}</span>
        {sub && <span className="size">{sub}</span>}
      </div>
    );
  }
  return (
    <button type="button" className={classes} aria-label={label} disabled={disabled} onClick={onPick} data-testid={testId}>
      <span className="price">{price ?? '-'}</span>
      {sub && <span className="size">{sub}</span>}
    </button>
  );
}

/**
 * A non-runner's (withdrawn runner's) price box: kept so the row keeps its shape, but empty,
 * greyed and not a button, so no slip can open for it.
 */
export function NonRunnerCell({ tone, className = '' }: { tone: 'back' | 'lay'; className?: string }) {
  return <div className={`price-cell ${tone} empty non-runner ${className}`.trim()} aria-hidden="true" data-testid="non-runner-cell" />;
}

/** The label beside a withdrawn runner's name. */
export function NonRunnerBadge() {
  const { t } = useTranslation('betting');
  return (
    <span className="badge non-runner" data-testid="non-runner">
      {t('runner.nonRunner')}
    </span>
  );
}

/** The statuses a market shows in words (any other is shown as the server names it). */
const STATUSES = ['suspended', 'ball_running', 'closed', 'void'] as const;
type ShownStatus = (typeof STATUSES)[number];
const isShown = (status: string): status is ShownStatus => (STATUSES as readonly string[]).includes(status);

/**
 * The band across a runner's (or a fancy line's) prices while its market takes no bets: it
 * covers them whole, and the prices under it are hidden, so its words never sit on numbers.
 */
export function StatusOverlay({ status }: { status: string }) {
  const { t } = useTranslation('betting');
  if (status === 'open') return null;
  return (
    <div className={`status-overlay ${status}`} data-testid="status-overlay">
      <span>{isShown(status) ? t(`status.${status}`) : status}</span>
    </div>
  );
}

/** The caller's P&L if a runner wins, and what it becomes with the slip's bet. */
export function RunnerPnl({ position, projected }: { position: number; projected?: number }) {
  const positionMinor = Math.round(position * 100);
  if (positionMinor === 0 && projected === undefined) return null;
  const tone = (minor: number) => (minor > 0 ? 'pnl win' : minor < 0 ? 'pnl lose' : 'pnl');
  return (
    <span className="runner-pnl" data-testid="runner-pnl">
      {positionMinor !== 0 && <span className={tone(positionMinor)} data-testid="runner-position">{formatMinorMoney(positionMinor)}</span>}
      {projected !== undefined && (
        <span className={tone(projected)} data-testid="runner-projection">
          » {formatMinorMoney(projected)}
        </span>
      )}
    </span>
  );
}
