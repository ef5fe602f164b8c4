// What the Knowledge view shows for an indexed file and for the entities under it: label, one-line description,
// tooltip and the context value the menus key on. Pure (no 'vscode' import), so the wording is unit-tested.
import { SUMMARY_MISMATCH_NOTE, type Entity, type IndexedFile } from '../../core/knowledge/types';
import { formatLineSpan } from './lineRange';
import { relativeTime } from '../../shared/relativeTime';

export type FileIcon = 'indexed' | 'metadata' | 'failed';

export interface FileRow {
  label: string;
  description: string;
  tooltip: string;
  ariaLabel: string;
  icon: FileIcon;
  /** `knowledgeFile.<state>`: package.json shows Re-index and Remove on every file. */
  contextValue: string;
}

/**
 * "indexed · 7 chunks · 2 min ago", "metadata only · just now", "failed · 3 h ago"; a range is named, and a file
 * whose model summaries had to be moved or dropped says so (the tooltip's note says which).
 */
export function fileDescription(file: IndexedFile, now: number): string {
  const when = relativeTime(file.indexedAt, now);
  const range = file.range ? ` (${formatLineSpan(file.range)})` : '';
  switch (file.state) {
    case 'indexed':
      return `indexed${range} · ${file.chunkCount} chunk${file.chunkCount === 1 ? '' : 's'}${file.note?.includes(SUMMARY_MISMATCH_NOTE) ? ' · summaries corrected' : ''} · ${when}`;
    case 'metadata':
      return `metadata only${range} · ${when}`;
    case 'failed':
      return `failed · ${when}`;
  }
}

const MODE_TEXT: Record<IndexedFile['mode'], string> = {
  full: 'fully (chunks, vectors and the model\u2019s summaries)',
  embed: 'chunks and vectors, without model summaries',
  metadata: 'metadata only (size, language, outline)',
};

export function fileRow(file: IndexedFile, now: number): FileRow {
  const description = fileDescription(file, now);
  const tooltip = [
    `${file.path}: ${description}`,
    `Indexed ${MODE_TEXT[file.mode]}${file.range ? `, ${formatLineSpan(file.range)}` : ''}.`,
    `${file.language}, ${file.lines.toLocaleString('en-US')} line${file.lines === 1 ? '' : 's'}, ${formatBytes(file.bytes)}.`,
    file.embedModel ? `Vectors: ${file.embedModel}.` : 'No vectors: retrieval finds it by keywords.',
    `Indexed at ${new Date(file.indexedAt).toLocaleString('en-US')}.`,
    ...(file.note ? ['', file.note] : []),
  ].join('\n');
  return {
    label: file.path,
    description,
    tooltip,
    ariaLabel: `${file.path}: ${description}`,
    icon: file.state,
    contextValue: `knowledgeFile.${file.state}`,
  };
}

export interface EntityRow {
  label: string;
  description: string;
  tooltip: string;
}

/** "parseConfig" with "function · line 12". */
export function entityRow(entity: Entity): EntityRow {
  return {
    label: entity.name,
    description: `${entity.kind} · line ${entity.line}`,
    tooltip: `${entity.kind} ${entity.name}, ${entity.file} line ${entity.line}`,
  };
}

/** The first line of a summary, short enough for a tree row (the tooltip has all of it). */
export function summaryLabel(summary: string, max = 120): string {
  const first = summary.trim().split('\n')[0]!.trim();
  return first.length > max ? `${first.slice(0, max - 1)}\u2026` : first;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
