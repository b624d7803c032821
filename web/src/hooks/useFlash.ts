import { useEffect, useRef, useState } from 'react';

/** How long a changed price stays highlighted. */
export const FLASH_MS = 700;

/** True for a moment after `value` changes (not on first render): prices flash when they move. */
export function useFlash(value: string): boolean {
  const previous = useRef(value);
  const [flash, setFlash] = useState(false);
  useEffect(() => {
    if (previous.current === value) return undefined;
    previous.current = value;
    setFlash(true);
    const timer = setTimeout(() => setFlash(false), FLASH_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return flash;
}
