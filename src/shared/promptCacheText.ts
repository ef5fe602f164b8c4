// How much of a prompt the model server had to read again, in the words the panel, the CLI and the log share.
// (A local server keeps the previous request's tokens; what it reused is `cached`, the rest it re-read.)
import { formatCount } from './format';

export interface CacheCounts {
  prompt: number;
  cached: number;
  /** The server did not say; the cached count is our estimate. */
  estimated: boolean;
}

/** "the server re-read 1,234 of 45,678 prompt tokens (97% from its cache)" — '' before any prompt was counted. */
export function rereadText(c: CacheCounts): string {
  if (!(c.prompt > 0)) return '';
  const format = (n: number) => formatCount(Math.round(n));
  const cached = Math.min(c.prompt, Math.max(0, c.cached));
  const share = Math.round((cached / c.prompt) * 100);
  return `the server re-read ${format(c.prompt - cached)} of ${format(c.prompt)} prompt tokens (${share}% from its cache${c.estimated ? ', estimated' : ''})`;
}
