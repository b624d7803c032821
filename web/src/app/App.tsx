import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { HashRouter } from 'react-router';
import { ToastContainer } from 'react-toastify/unstyled';
import { RealityCheck } from '../features/safer-gambling/RealityCheck';
import { queryClient as appQueryClient } from '../lib/query-client';
import { TOAST_SETTINGS } from '../lib/toast';
import { AppRoutes } from './routes';
import { SessionCacheSync } from './SessionCacheSync';
import { Theme } from './Theme';

/**
 * Everything the app sits inside: the query client, the hash router, the theme and the toasts,
 * and the reality check, which follows a bettor's session on every page (its own layouts too).
 */
export function App({ queryClient = appQueryClient }: { queryClient?: QueryClient }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <HashRouter>
          <Theme />
          <SessionCacheSync />
          <AppRoutes />
          <RealityCheck />
        </HashRouter>
        <ToastContainer {...TOAST_SETTINGS} />
      </QueryClientProvider>
    </StrictMode>
  );
}
