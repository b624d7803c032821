import { useCallback, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * State that belongs to the page it was set on, such as an open side menu or pop-up: any
 * navigation (a link, or the phone's Back button going through the browser's history) sets it
 * back to null, so Back leaves no menu or pop-up of the page before standing open.
 */
export function usePageState<T>(): [T | null, (value: T | null) => void] {
  const location = useLocation();
  // The path too: every entry the router did not make itself (a typed or first-loaded address)
  // has the key "default".
  const page = `${location.key} ${location.pathname}${location.search}`;
  const [held, setHeld] = useState<{ value: T | null; page: string }>({ value: null, page });
  // Adjusted while rendering (React's pattern for state that follows a prop), not in an effect:
  // the page never draws the old page's pop-up even once.
  if (held.page !== page) setHeld({ value: null, page });
  const set = useCallback((value: T | null) => setHeld({ value, page }), [page]);
  return [held.page === page ? held.value : null, set];
}
