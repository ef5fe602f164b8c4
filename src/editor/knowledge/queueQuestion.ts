// The question asked for each queued file after a turn: title, choices and what each choice means. Pure
// (unit-tested); queueAsker.ts shows it in a native QuickPick.

export type QueueAnswer = 'full' | 'lines' | 'metadata' | 'skip' | 'never-type';

export interface QueueChoiceItem {
  answer: QueueAnswer;
  label: string;
  detail: string;
}

/** "Index src/a.ts? (1 of 2)". `position` is 1-based. */
export function queueTitle(path: string, position: number, total: number): string {
  return `Index ${path}? (${position} of ${total})`;
}

/** The choices for a file whose type (the queue's: ".ts", or the name of a file without extension) is `type`. */
export function queueChoices(type: string): QueueChoiceItem[] {
  return [
    { answer: 'full', label: '$(database) Index fully', detail: 'Chunks, vectors and the model\u2019s summaries, entities and relations.' },
    { answer: 'lines', label: '$(list-selection) Index lines\u2026', detail: 'Only the lines you give (e.g. 10-80).' },
    { answer: 'metadata', label: '$(info) Metadata only', detail: 'Size, language and outline; no model call.' },
    { answer: 'skip', label: '$(debug-step-over) Skip', detail: 'Not this time.' },
    {
      answer: 'never-type',
      label: type.startsWith('.') ? `$(circle-slash) Never for ${type} files` : `$(circle-slash) Never for files named ${type}`,
      detail: 'Files of this type are not queued again in this workspace.',
    },
  ];
}

export const QUEUE_PLACEHOLDER = 'The agent read this file. Escape keeps it queued for later.';

/** The status bar text for a queue of `length` files (empty when there is nothing to ask about). */
export function queueStatusText(length: number): string {
  return length > 0 ? `$(database) ${length} to index` : '';
}
