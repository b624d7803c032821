import { useSyncExternalStore } from 'react';

/** Spec §9: the narrow-screen breakpoint is 993 px. */
export const NARROW_BELOW_PX = 993;
const QUERY = `(max-width: ${NARROW_BELOW_PX - 0.02}px)`;

export function isNarrowScreen(): boolean {
  return typeof window.matchMedia === 'function' ? window.matchMedia(QUERY).matches : window.innerWidth < NARROW_BELOW_PX;
}

function subscribe(listener: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const list = window.matchMedia(QUERY);
  list.addEventListener('change', listener);
  return () => list.removeEventListener('change', listener);
}

export function useIsNarrow(): boolean {
  return useSyncExternalStore(subscribe, isNarrowScreen, isNarrowScreen);
}
