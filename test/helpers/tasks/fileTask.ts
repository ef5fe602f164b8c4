// The 4k-window target task: twelve ~2 KB notes, each saying what kind of document it is; the agent lists
// the folder, reads each note and renames it after its kind (1 + 12 + 12 = 25 tool rounds, then it reports).
// The scripted model only knows what the request shows it: the file names come from the listing it was sent
// and each new name from the read result in the request, so a prompt that lost them fails the task.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChatBody, ScriptedReply } from '../fakeLlm';
import { lastMessage, type ReplyFn } from '../fakeLlm/windowedScript';

export const KINDS = ['invoice', 'contract', 'memo', 'receipt'] as const;
export const FILE_COUNT = 12;
export const TOOL_ROUNDS = 1 + FILE_COUNT * 2;

const PROSE =
  'This paragraph records the details of the matter as discussed by the team, with dates, amounts and the people ' +
  'involved, so that anyone reading it later understands what was agreed and why it was agreed that way. ';

export function noteName(n: number): string {
  return `note-${String(n).padStart(2, '0')}.txt`;
}

export function kindOf(n: number): (typeof KINDS)[number] {
  return KINDS[(n * 7) % KINDS.length]!;
}

/** The new name the task asks for: the kind, then the note's number. */
export function renamed(n: number): string {
  return `${kindOf(n)}-${String(n).padStart(2, '0')}.txt`;
}

/** ~2 KB of text per note; the kind is stated once, in the middle, so only a whole read finds it. */
export function noteText(n: number, bytes = 2000): string {
  const lines: string[] = [`Note ${n}`];
  let body = '';
  while (body.length < bytes / 2) body += PROSE;
  lines.push(body.trim(), `Document kind: ${kindOf(n)}.`);
  body = '';
  while (body.length < bytes / 2 - 60) body += PROSE;
  lines.push(body.trim());
  return lines.join('\n') + '\n';
}

export function fileTaskWorkspace(count = FILE_COUNT, bytes = 2000): string {
  const root = mkdtempSync(path.join(tmpdir(), 'lh-ctx-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  for (let n = 1; n <= count; n++) writeFileSync(path.join(ws, noteName(n)), noteText(n, bytes));
  return ws;
}

export const FILE_TASK = 'Each note-NN.txt says what kind of document it is. Rename every note to <kind>-NN.txt.';

/**
 * The model's side of the task. It keeps the list of notes it saw in the listing (a real model would have it
 * in the session summary) and moves each note according to the read result in front of it.
 */
export function fileTaskModel(): ReplyFn & { failures: string[] } {
  let notes: string[] = [];
  let step = 0;
  const failures: string[] = [];
  const fn = (request: ChatBody): ScriptedReply | undefined => {
    const s = step++;
    const last = lastMessage(request);
    if (s === 0) return { thinking: 'List the folder first.', toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] };
    if (s === 1) {
      notes = [...new Set(last.content.match(/note-\d\d\.txt/g) ?? [])].sort();
      if (notes.length === 0) failures.push(`round 2: the listing was not in the request (last message: ${last.content.slice(0, 200)})`);
    }
    const k = Math.floor((s - 1) / 2);
    const note = notes[k];
    if (!note) return { text: `There is no note #${k + 1}.` };
    if ((s - 1) % 2 === 0) return { toolCalls: [{ name: 'read_file', arguments: { path: note } }] };
    const kind = /Document kind: (\w+)\./.exec(last.content)?.[1];
    if (!kind) failures.push(`${note}: its read result was not the last message of the request`);
    const move = { name: 'move_file', arguments: { source: note, destination: `${kind ?? 'unknown'}-${note.slice(5)}` } };
    // The last move and the report go in one reply, so the whole task is exactly TOOL_ROUNDS rounds.
    if (k < notes.length - 1) return { toolCalls: [move] };
    return { toolCalls: [move, { name: 'task_completion', arguments: { result: `Renamed ${notes.length} notes after their kind.` } }] };
  };
  return Object.assign(fn, { failures });
}
