/** How a finished match ended, across the top of its page: the server's result text, or that it has ended. */
export function ResultBanner({ result }: { result: string | null }) {
  return (
    <div className="result-banner" data-testid="result-banner" role="status">
      <span className="result-label">Result</span>
      <span className="result-text">{result ?? 'This event has ended.'}</span>
    </div>
  );
}
