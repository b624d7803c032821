import type { ReactNode } from 'react';
import { errorMessage, isMissingEndpoint } from '../api/client';

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
 * A call the server does not have yet reads as "not available yet" rather than an error.
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
      <ErrorMessage>
        {isMissingEndpoint(error) ? 'This is not available yet. Please check back later.' : errorMessage(error)}
      </ErrorMessage>
    );
  }
  if (isPending) return <Spinner />;
  if (isEmpty) return <EmptyState>{empty ?? 'No data available.'}</EmptyState>;
  return <>{children}</>;
}
