/** Money offered at a price as exchanges show it: whole units, thousands as "k" (950, 12.3k, 450k). */
export function formatSize(size: number): string {
  if (size >= 100_000) return `${Math.round(size / 1000)}k`;
  if (size >= 10_000) return `${(size / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return String(Math.round(size));
}
