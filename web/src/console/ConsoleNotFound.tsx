import { Link } from 'react-router';
import { PageCard } from '../components/PageCard';

/** A console address with no screen, or one this role may not open. */
export function ConsoleNotFound() {
  return (
    <PageCard title="Not found" testId="console-not-found">
      <p>There is no such console page for your account.</p>
      <Link to="/console">Back to the console</Link>
    </PageCard>
  );
}
