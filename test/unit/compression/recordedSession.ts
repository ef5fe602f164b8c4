// A session history built from REAL tool results: every call runs through the built-in tools on a temp
// workspace (the executor's exact path, via ToolHarness), so digests are tested against what the tools print.
import type { ChatMessage } from '../../../src/core/messages';
import { TempWorkspace, ToolHarness } from '../../helpers/tools/toolHarness';

export class RecordedSession {
  readonly history: ChatMessage[] = [];
  private seq = 0;

  private constructor(
    readonly ws: TempWorkspace,
    readonly tools: ToolHarness,
  ) {}

  static async create(files: Record<string, string> = {}): Promise<RecordedSession> {
    const ws = await TempWorkspace.create();
    for (const [rel, text] of Object.entries(files)) await ws.write(rel, text);
    return new RecordedSession(ws, new ToolHarness(ws));
  }

  user(content: string): this {
    this.history.push({ role: 'user', content });
    return this;
  }

  assistant(content: string): this {
    this.history.push({ role: 'assistant', content });
    return this;
  }

  /** One assistant message calling `name`, and the tool's real result. Returns the result's index in history. */
  async call(name: string, args: Record<string, unknown>, text = ''): Promise<number> {
    const id = `call_${++this.seq}`;
    this.history.push({ role: 'assistant', content: text, toolCalls: [{ id, name, arguments: args }] });
    const result = await this.tools.call(name, args);
    this.history.push({ role: 'tool', content: result.content, toolCallId: id, toolName: name });
    return this.history.length - 1;
  }

  /** A result produced elsewhere (an MCP server, a tool we do not have), paired with its call. */
  record(name: string, args: Record<string, unknown>, content: string): number {
    const id = `call_${++this.seq}`;
    this.history.push({ role: 'assistant', content: '', toolCalls: [{ id, name, arguments: args }] });
    this.history.push({ role: 'tool', content, toolCallId: id, toolName: name });
    return this.history.length - 1;
  }

  dispose(): Promise<void> {
    return this.ws.dispose();
  }
}

export function noteName(n: number): string {
  return `note-${String(n).padStart(2, '0')}.txt`;
}

/** About `bytes` of prose with a first line saying what it is. */
export function noteText(n: number, bytes = 2000): string {
  const para = 'This paragraph records what the team agreed, with dates, amounts and the people involved. ';
  let body = '';
  while (body.length < bytes) body += para;
  return `Note ${n}. Kind: ${['memo', 'invoice', 'contract'][n % 3]}\n${body.trim()}\n`;
}

/**
 * What a weak model that trusts what it is sent believes exists: every `note-NN.txt` it can find by regex in
 * the messages, read literally.
 */
export function namesSeen(messages: readonly ChatMessage[], pattern = /note-\d\d\.txt/g): Set<string> {
  const seen = new Set<string>();
  for (const m of messages) for (const name of m.content.match(pattern) ?? []) seen.add(name);
  return seen;
}

export const NOTE_TASK = 'Each note-NN.txt in the workspace says what kind of document it is. Rename every note to <kind>-NN.txt, then report.';

/** A TypeScript module of about `chars` characters that never mentions a note. */
export function moduleText(k: number, chars: number): string {
  const out: string[] = [`// Module ${k}: request handling helpers.`];
  for (let f = 0; out.join('\n').length < chars; f++) {
    out.push(`export function handle${k}x${f}(input: string, retries: number): string {`);
    out.push(`  const trimmed = input.trim();`, `  if (retries > ${f + 2}) throw new Error('too many retries for ' + trimmed);`, `  return trimmed.toUpperCase();`, '}', '');
  }
  return out.join('\n');
}

/**
 * The note task as a real session: the request, a todo list, a listing of the twelve notes, then `reads`
 * rounds each reading a module of `readChars` (never a note, so the names can only come from the listing).
 */
export async function noteTaskSession(reads: number, readChars = 2500): Promise<{ session: RecordedSession; listing: number }> {
  const files: Record<string, string> = {};
  for (let n = 1; n <= 12; n++) files[noteName(n)] = noteText(n);
  for (let k = 0; k < reads; k++) files[`src/module${k}.ts`] = moduleText(k, readChars);
  const session = await RecordedSession.create(files);
  session.user(NOTE_TASK);
  await session.call('todo_write', {
    todos: [
      { text: 'List the notes', status: 'done' },
      { text: 'Rename each note after its kind', status: 'in_progress' },
      { text: 'Report what was renamed', status: 'pending' },
    ],
  });
  const listing = await session.call('list_directory', { path: '.' }, 'First I list the workspace.');
  for (let k = 0; k < reads; k++) await session.call('read_file', { path: `src/module${k}.ts` }, `Checking module ${k} before renaming.`);
  return { session, listing };
}
