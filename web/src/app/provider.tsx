import { StrictMode, type ReactNode } from 'react';

/**
 * Everything the whole app sits inside. Today only StrictMode; the query
 * client, router and theme are added here when the full client is built.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return <StrictMode>{children}</StrictMode>;
}
