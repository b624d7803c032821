import { Component, type ErrorInfo, type ReactNode } from 'react';

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
    return (
      <div className="page-error" role="alert" data-testid="page-error">
        <h1>Something went wrong on this page.</h1>
        <p>
          <a href="#/">Go to the home page</a> or <button type="button" className="btn btn-link" onClick={() => window.location.reload()}>reload</button>.
        </p>
      </div>
    );
  }
}
