// Thousands separators as `n.toLocaleString('en-US')` writes them, without Intl: the first toLocaleString call
// in a process loads ICU data (tens of ms), and the CLI's first request would wait for it.

/** `8192` → `"8,192"`; identical to `n.toLocaleString('en-US')` for every number. */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}
