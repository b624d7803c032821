import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../api/client';

export function Spinner({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="spinner" role="status" data-testid="loading">
      <span className="spinner-dot" aria-hidden="true" />
      {label ?? t('loading')}
    </div>
  );
}

export function ErrorMessage({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="error-message" data-testid="error-message">
      {children}
    </p>
  );
}

function NoData() {
  const { t } = useTranslation();
  return <>{t('noData')}</>;
}

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <p className="empty-state" data-testid="empty-state">
      {children}
    </p>
  );
}

/**
 * Loading, failure and empty states of one query, so no page is left blank or spinning.
 * A failure shows the server's own words, whatever its status (a missing call is an error like any other).
 */
export function QueryState({
  isPending,
  error,
  isEmpty,
  empty,
  children,
}: {
  isPending: boolean;
  error: unknown;
  isEmpty?: boolean;
  empty?: ReactNode;
  children: ReactNode;
}) {
  if (error) {
    return (
      <ErrorMessage>{errorMessage(error)}</ErrorMessage>
    );
  }
  if (isPending) return <Spinner />;
  if (isEmpty) return <EmptyState>{empty ?? <NoData />}</EmptyState>;
  return <>{children}</>;
}
