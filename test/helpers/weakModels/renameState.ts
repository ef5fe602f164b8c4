// What a weak model believes about the note-renaming task, reconstructed from one request and nothing else:
// is the task still visible, which notes exist, which are done, which kinds it has read, and whether the
// folder listing in front of it looks complete. Shared by the built-in and the MCP rename models.
import { FILE_TASK, KINDS } from '../tasks/fileTask';
import { baseName, looksFailed, readRequest, type RequestView } from './requestView';

export type Kind = (typeof KINDS)[number];

export interface ListingSeen {
  content: string;
  /** Ends with "…", says "more"/"truncated", or shows fewer files than its header counts. */
  looksCut: boolean;
  notes: Set<number>;
  renamed: Set<number>;
}

export interface RenameState {
  view: RequestView;
  taskVisible: boolean;
  /** Note numbers the request mentions anywhere (listings, summary, digests, the model's own calls). */
  notes: number[];
  done: Set<number>;
  kinds: Map<number, Kind>;
  /** The newest folder listing in the request, if any. */
  listing?: ListingSeen;
  /** Visible move results that failed (each is work that went wrong). */
  moveErrors: string[];
  /** Notes moved again after a successful move was visible (work done twice). */
  movedTwice: string[];
  /** Notes whose read failed ("does not exist") after the newest listing: the error says to list again. */
  readFailed: Set<number>;
}

export const NOTE_NAME = /note-(\d\d)\.txt/g;
export const RENAMED_NAME = new RegExp(`(?:${KINDS.join('|')})-(\\d\\d)\\.txt`, 'g');

export function readRenameState(view: RequestView): RenameState {
  const notes = new Set<number>([...numbers(view.visibleText, NOTE_NAME), ...numbers(view.visibleText, RENAMED_NAME)]);
  const done = new Set<number>();
  const kinds = new Map<number, Kind>();
  const moveErrors: string[] = [];
  const movedTwice: string[] = [];
  const listings: ListingSeen[] = [];
  const failedReads: Array<{ note: number; index: number }> = [];
  let newestListingAt = -1;

  for (const r of view.results) {
    const tool = r.call?.name ?? '';
    if (tool.endsWith('list_directory') || (!r.call && /^(Workspace root|\[Compressed\] list_directory|\[FILE\])/m.test(r.content))) {
      listings.push(listingOf(r.content));
      newestListingAt = r.index;
      continue;
    }
    if (/read_(text_)?file$/.test(tool) || (!r.call && /Document kind:/.test(r.content))) {
      const n = noteNumber(baseName(r.call?.args.path)) ?? noteFromText(r.content);
      if (n !== undefined && looksFailed(r.content)) failedReads.push({ note: n, index: r.index });
      const kind = kindIn(r.content);
      if (n !== undefined && kind) kinds.set(n, kind);
      continue;
    }
    if (tool.endsWith('move_file')) {
      const n = noteNumber(baseName(r.call?.args.source));
      if (n === undefined) continue;
      if (looksFailed(r.content)) moveErrors.push(`move of ${baseName(r.call?.args.source)} failed: ${r.content.slice(0, 200)}`);
      else if (done.has(n)) movedTwice.push(`${baseName(r.call?.args.source)} was moved again after a visible successful move`);
      else done.add(n);
    }
  }
  // Digests and summary lines that report a move ("Moved a to b.", "Tool move_file a → b: ok").
  for (const line of view.visibleText.split('\n')) {
    const moved = /\b(?:Successfully moved|Moved)\s+(?:\S*[\\/])?note-(\d\d)\.txt\s+to\s/.exec(line);
    if (moved) done.add(Number(moved[1]));
    const logged = /move_file\s+(?:\S*[\\/])?note-(\d\d)\.txt\s*(?:→|->)/.exec(line);
    if (logged && !/\bfailed\b|\berror\b/i.test(line)) done.add(Number(logged[1]));
  }
  // A listing that shows the new name and not the old one.
  const newest = listings.at(-1);
  for (const l of listings) for (const n of l.renamed) if (!newest?.notes.has(n)) done.add(n);

  return {
    view,
    taskVisible: taskVisible(view),
    notes: [...notes].sort((a, b) => a - b),
    done,
    kinds,
    ...(newest && { listing: newest }),
    moveErrors,
    movedTwice,
    readFailed: new Set(failedReads.filter((f) => f.index > newestListingAt).map((f) => f.note)),
  };
}

export function readRenameRequest(request: Parameters<typeof readRequest>[0]): RenameState {
  return readRenameState(readRequest(request));
}

/** The task text in a user message, or in the system prompt's session summary. */
function taskVisible(view: RequestView): boolean {
  const wanted = squash(FILE_TASK);
  if (squash(view.summary).includes(wanted)) return true;
  return view.messages.some((m) => m.role === 'user' && squash(m.content).includes(wanted));
}

function listingOf(content: string): ListingSeen {
  const notes = new Set(numbers(content, NOTE_NAME));
  const renamed = new Set(numbers(content, RENAMED_NAME));
  const header = /(\d+) files?\b/.exec(content);
  const shownFiles = (content.match(/\[(?:file|FILE)\]/g) ?? []).length || notes.size + renamed.size;
  const looksCut =
    /…|\.\.\./.test(content) ||
    /\bmore\b|truncat|not shown|omitted/i.test(content) ||
    (header !== null && Number(header[1]) > shownFiles);
  return { content, looksCut, notes, renamed };
}

function kindIn(text: string): Kind | undefined {
  const m = /Document kind: (\w+)\./.exec(text);
  return m && (KINDS as readonly string[]).includes(m[1]!) ? (m[1] as Kind) : undefined;
}

function noteNumber(name: string): number | undefined {
  const m = /^note-(\d\d)\.txt$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

function noteFromText(text: string): number | undefined {
  const m = /^Note (\d+)$/m.exec(text);
  return m ? Number(m[1]) : undefined;
}

function numbers(text: string, pattern: RegExp): number[] {
  return [...text.matchAll(new RegExp(pattern.source, 'g'))].map((m) => Number(m[1]));
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function pad(n: number): string {
  return String(n).padStart(2, '0');
}
