import { Link } from 'react-router';

export function NotFound() {
  return (
    <div className="page-card not-found" data-testid="not-found">
      <div className="page-card-body">
        <h1>Page not found</h1>
        <p>There is nothing at this address.</p>
        <Link to="/" className="btn btn-primary" data-testid="not-found-home">
          Go to the home page
        </Link>
      </div>
    </div>
  );
}
