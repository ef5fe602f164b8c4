// Small text helpers every layer uses for messages: an error's message, a size in bytes, a count with its noun.

/** The message of anything thrown. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** "512 B", "1.2 KB", "3.4 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** "1 file", "3 files"; `pluralWord` for irregular nouns ("2 entities"). */
export function plural(n: number, word: string, pluralWord = word + 's'): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}

/** The first character upper-cased: a clause that becomes a sentence. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Thousands separators as `n.toLocaleString('en-US')` writes them, without Intl: the first toLocaleString call
// in a process loads ICU data (tens of ms), and the CLI's first request would wait for it.

/** `8192` → `"8,192"`; identical to `n.toLocaleString('en-US')` for every number. */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}
