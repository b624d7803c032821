import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { mustChangePassword, useSession } from '../lib/session';

/**
 * Keeps the server-state cache in step with the session: a log-out or another user drops
 * everything cached, and a completed password change refetches what was refused (428) before.
 */
export function SessionCacheSync() {
  const queryClient = useQueryClient();
  const user = useSession();
  const previous = useRef({ userId: user?.user_id ?? null, locked: mustChangePassword(user) });

  useEffect(() => {
    const now = { userId: user?.user_id ?? null, locked: mustChangePassword(user) };
    const before = previous.current;
    previous.current = now;
    if (before.userId !== now.userId) {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'globalSetting' });
    } else if (before.locked && !now.locked) {
      void queryClient.invalidateQueries();
    }
  }, [user, queryClient]);

  return null;
}
