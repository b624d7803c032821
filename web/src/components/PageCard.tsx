import type { ReactNode } from 'react';

/** A content page's frame: the coloured title bar and a white body. */
export function PageCard({ title, children, actions, testId }: { title: ReactNode; children: ReactNode; actions?: ReactNode; testId?: string }) {
  return (
    <section className="page-card" data-testid={testId}>
      <header className="page-card-title">
        <h1>{title}</h1>
        {actions}
      </header>
      <div className="page-card-body">{children}</div>
    </section>
  );
}
