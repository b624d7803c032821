import { Link } from 'react-router';
import { RulesTabs } from './RulesTabs';

/** The rules page in its own layout (no header or sidebar). */
export function RulesPage() {
  return (
    <div className="rules-page" data-testid="rules-page">
      <header className="rules-page-header">
        <Link to="/" className="brand-text">
          ← Home
        </Link>
        <h1>Rules</h1>
      </header>
      <RulesTabs />
    </div>
  );
}
