import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';

/** A page that throws (or a chunk that fails to load) shows a way out instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { error: Error | null; key?: string }> {
  state: { error: Error | null; key?: string } = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  static getDerivedStateFromProps(props: { resetKey?: string }, state: { error: Error | null; key?: string }) {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Page failed:', error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return <PageError />;
  }
}

function PageError() {
  const { t } = useTranslation();
  return (
    <div className="page-error" role="alert" data-testid="page-error">
      <h1>{t('pageError.title')}</h1>
      <p>
        <Trans
          t={t}
          i18nKey="pageError.wayOut"
          components={{ home: <a href="#/" />, reload: <button type="button" className="btn btn-link" onClick={() => window.location.reload()} /> }}
        />
      </p>
    </div>
  );
}
