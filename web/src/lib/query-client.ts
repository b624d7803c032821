import { QueryClient } from '@tanstack/react-query';

/**
 * The app's one query client. Spec §8: fetch failures other than the balance are shown where
 * they matter and never retried in a storm; a refused session is handled by the API client.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
