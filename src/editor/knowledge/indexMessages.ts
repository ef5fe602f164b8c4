// What the user is told after indexing: one plain sentence per file (a refused binary file, metadata only because
// the model's JSON was invalid, no embedding model so retrieval uses keywords), and one line for a batch.
// Pure (unit-tested).
import type { IndexResult } from '../../indexing/indexer';

export type Severity = 'info' | 'warning' | 'error';

export interface ResultMessage {
  severity: Severity;
  text: string;
}

export function describeResult(result: IndexResult): ResultMessage {
  const { path, notices } = result;
  const also = notices.length ? `: ${notices.join('; ')}` : '';
  switch (result.outcome) {
    case 'indexed': {
      const chunks = `${result.chunks} chunk${result.chunks === 1 ? '' : 's'}`;
      const range = result.file?.range ? `, lines ${result.file.range.startLine}-${result.file.range.endLine}` : '';
      return { severity: notices.length ? 'warning' : 'info', text: `Indexed ${path} (${chunks}${range})${also}.` };
    }
    case 'unchanged':
      return { severity: 'info', text: `${path} is already indexed and has not changed since.` };
    case 'metadata': {
      // The indexer's note ends in "indexed with metadata only", which the sentence already says.
      const why = notices.map((n) => n.replace(/[;,.]?\s*indexed with metadata only\.?$/i, '')).filter((n) => n !== '');
      return why.length
        ? { severity: 'warning', text: `Indexed ${path} with metadata only: ${why.join('; ')}.` }
        : { severity: 'info', text: `Indexed ${path} with metadata only (size, language, outline).` };
    }
    case 'refused':
      return { severity: 'warning', text: `Did not index ${path}: ${sentence(result.reason ?? 'refused')}` };
    case 'failed':
      return { severity: 'error', text: `Could not index ${path}: ${sentence(result.reason ?? 'unknown error')}` };
  }
}

/** "Indexed 12 files (2 unchanged, 1 with metadata only, 1 refused)." */
export function describeBatch(results: readonly IndexResult[], cancelledAfter?: number): ResultMessage {
  const count = (outcome: IndexResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
  const indexed = count('indexed');
  const parts = [
    count('unchanged') && `${count('unchanged')} unchanged`,
    count('metadata') && `${count('metadata')} with metadata only`,
    count('refused') && `${count('refused')} refused`,
    count('failed') && `${count('failed')} failed`,
  ].filter((p): p is string => typeof p === 'string');
  const fallbacks = results.filter((r) => r.outcome === 'indexed' && r.notices.length > 0).length;
  if (fallbacks) parts.push(`${fallbacks} with a note`);
  const cancelled = cancelledAfter !== undefined ? ` Cancelled after ${cancelledAfter} of the files.` : '';
  const text = `Indexed ${indexed} file${indexed === 1 ? '' : 's'}${parts.length ? ` (${parts.join(', ')})` : ''}.${cancelled}`;
  const severity: Severity = count('failed') ? 'error' : count('refused') || count('metadata') || fallbacks ? 'warning' : 'info';
  return { severity, text };
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
