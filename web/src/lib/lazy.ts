import { lazy, type ComponentType } from 'react';

/** A lazily loaded named export: each area is its own chunk, so the first page stays small. */
export function lazyNamed<M extends Record<string, unknown>>(loader: () => Promise<M>, name: keyof M) {
  return lazy(async () => ({ default: (await loader())[name] as ComponentType }));
}
