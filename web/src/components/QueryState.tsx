import type { ReactNode } from 'react';
import { errorMessage } from '../api/client';

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="spinner" role="status" data-testid="loading">
      <span className="spinner-dot" aria-hidden="true" />
      {label}
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
  if (isEmpty) return <EmptyState>{empty ?? 'No data available.'}</EmptyState>;
  return <>{children}</>;
}
