// The bettor's preferences as the pages read and save them (api/preferences.ts).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PREFERENCES, getPreferences, PREFERENCES_KEY, savePreferences, type Preferences, type PreferencesInput } from '../api/preferences';

/** The bettor's preferences (the defaults until read), and whether they were read yet. */
export function usePreferencesRead(): { preferences: Preferences; read: boolean } {
  const query = useQuery({ queryKey: PREFERENCES_KEY, queryFn: getPreferences, staleTime: 60_000 });
  return { preferences: query.data ?? DEFAULT_PREFERENCES, read: query.data !== undefined };
}

export function usePreferences(): Preferences {
  return usePreferencesRead().preferences;
}

/** Saves sent so far in this tab: only the answer of the newest speaks for the preferences. */
let savesSent = 0;

/**
 * Saves some preferences and keeps the answer as the preferences read, unless a newer save was
 * sent meanwhile (`latest` false): answers can come back out of order (the stake's save on
 * blur, then the one-click toggle's at once), and an older one would undo the newer choice.
 */
export function useSetPreferences() {
  const client = useQueryClient();
  return async (input: PreferencesInput) => {
    const sent = ++savesSent;
    const answer = await savePreferences(input);
    const latest = sent === savesSent;
    if (answer.data && latest) client.setQueryData(PREFERENCES_KEY, answer.data);
    return { ...answer, latest };
  };
}
