/** Money as the server sends it (a JSON number with 2 decimals), shown with exactly 2 decimals. */
export function formatMoney(amount: number): string {
  return amount.toFixed(2);
}
