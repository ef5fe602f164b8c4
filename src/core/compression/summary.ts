// The running session summary: what happened in messages that left the prompt. Built deterministically from
// the messages themselves, so eviction never needs the model. A weak model trusts it as the whole story, so it
// keeps the user's requests (pinned: they outlast every step when room is short), each tool result as a digest
// (every name a listing gave, "a → b: ok" for a move), the files changed before the files only read, and the
// open todos.
import { DEFAULT_POLICY_MESSAGES } from '../analysis/policyConfig';
import type { ChatMessage } from '../messages';
import { estimateTokens } from '../tokens';
import { todoMark } from '../workingContext/hotContext';
import { digestLine, parseTodoList, resultSucceeded } from './toolResultDigest';
import type { Unit } from './compressionUnits';
import { INDEX_SUMMARY_LABEL, isCompressed, oneLine, parseArguments, unmarked } from './marker';
import { baseToolName, findCall, toolResultMeta } from './metadata';

/** 'moved': the file left this path (a move's source). */
export type FileTouch = 'read' | 'modified' | 'moved';
export type SummaryTodoStatus = 'pending' | 'in_progress' | 'done';

/** The serialisable form, for persistence. Fields added later are optional so older stored states still load. */
export interface SummaryState {
  lines: string[];
  /** Lines dropped from the front to keep the summary small. */
  omitted: number;
  files: Array<[path: string, touch: FileTouch]>;
  /** The user's requests from evicted messages (oldest first), each cut to about REQUEST_CHARS. */
  requests?: string[];
  /** The latest todo list seen in evicted messages. */
  todos?: Array<{ text: string; status: SummaryTodoStatus }>;
}

const MODIFYING_TOOLS = new Set(['edit_file', 'write_file', 'move_file', 'delete_file', 'create_file', 'apply_patch', 'create_directory']);
const MAX_STORED_LINES = 200;
const MAX_LISTED_FILES = 40;
const MAX_STORED_REQUESTS = 50;
const MAX_LISTED_TODOS = 15;
/** A pinned request longer than this keeps its head and tail. */
export const REQUEST_CHARS = 600;

// The messages the agent itself sends as "user" to keep a weak model going (src/core/analysis/policyConfig.ts,
// src/core/resilience/turnHooks.ts, src/core/toolProtocol/toolBlock.ts). They are not the user's requests.
const NUDGE_PREFIXES = Object.values(DEFAULT_POLICY_MESSAGES).map((m) => m.slice(0, 60));
const NUDGE_PATTERNS = [/^Your tool call could not be run:/, /^You have called \S+ with the same arguments \d+ times in a row/];

/** Is this user message one of the agent's own nudges (a continuation, a correction), not a request? */
export function isNudge(text: string): boolean {
  const t = unmarked(text).trim();
  return NUDGE_PREFIXES.some((p) => t.startsWith(p)) || NUDGE_PATTERNS.some((re) => re.test(t));
}

export class RunningSummary {
  private lines: string[] = [];
  private omitted = 0;
  private readonly files = new Map<string, FileTouch>();
  private requests: string[] = [];
  private todos: Array<{ text: string; status: SummaryTodoStatus }> | undefined;
  /** Bumped on every change, so render() can reuse its last result (it runs on every measurement). */
  private version = 0;
  private rendered: { version: number; maxTokens: number; text: string } | undefined;

  static from(state: SummaryState | undefined): RunningSummary {
    const s = new RunningSummary();
    if (!state) return s;
    s.lines = [...state.lines];
    s.omitted = state.omitted;
    for (const [path, touch] of state.files) s.files.set(path, touch);
    s.requests = [...(state.requests ?? [])];
    if (state.todos) s.todos = state.todos.map((t) => ({ ...t }));
    return s;
  }

  get empty(): boolean {
    return this.lines.length === 0 && this.omitted === 0 && this.files.size === 0 && this.requests.length === 0 && this.todos === undefined;
  }

  toState(): SummaryState {
    const state: SummaryState = { lines: [...this.lines], omitted: this.omitted, files: [...this.files] };
    if (this.requests.length) state.requests = [...this.requests];
    if (this.todos) state.todos = this.todos.map((t) => ({ ...t }));
    return state;
  }

  filesTouched(): string[] {
    return [...this.files.keys()];
  }

  /** The pinned user requests, oldest first. */
  userRequests(): string[] {
    return [...this.requests];
  }

  /** Open items of the latest todo list seen (undefined: no todo list was seen). */
  openTodos(): string[] | undefined {
    return this.todos?.filter((t) => t.status !== 'done').map((t) => t.text);
  }

  /** Records a unit leaving the prompt. `current(i)` is the message as the model last saw it. */
  addUnit(history: readonly ChatMessage[], unit: Unit, current: (index: number) => ChatMessage): void {
    for (let i = unit.start; i < unit.end; i++) {
      const m = current(i);
      if (m.role === 'user') this.addUser(history, i, m);
      else if (m.role === 'assistant') {
        const text = unmarked(m.content).trim();
        if (text) this.push(`Assistant: ${oneLine(text, 200)}`);
      } else if (m.role === 'tool') {
        // The original, not the compressed copy the model last saw: the digest is built from all of it —
        // except when the copy holds the file's index summary, which says more than a digest of the original.
        this.push(`Tool ${isIndexSummaryCopy(m) ? digestLine(withMessage(history, i, m), i) : digestLine(history, i)}`);
        this.noteResult(history, i);
      }
    }
  }

  /**
   * The block added to the system prompt, at most about `maxTokens`. When room is short, what goes last:
   * steps that are no fact, then files only read, then steps that say what exists or changed. The newest
   * request, the open todos and the files changed always stay.
   */
  render(maxTokens: number): string {
    if (this.empty) return '';
    if (this.rendered && this.rendered.version === this.version && this.rendered.maxTokens === maxTokens) return this.rendered.text;
    const head = '# Session summary\nEarlier messages left the context window to make room. What happened in them:';
    const todos = this.renderTodos();
    let budget = maxTokens - estimateTokens(head) - (todos ? estimateTokens(todos) + 1 : 0) - 12;

    const requests = this.requests.map((r) => `- User: ${r}`);
    let keptRequests = 0;
    for (let i = requests.length - 1; i >= 0; i--) {
      const cost = estimateTokens(requests[i]!) + 2;
      if (cost > budget && keptRequests > 0) break;
      budget -= cost;
      keptRequests++;
    }
    const requestBlock: string[] = [];
    if (keptRequests > 0) {
      const droppedRequests = requests.length - keptRequests;
      requestBlock.push(`The user's requests (oldest first${droppedRequests ? `; ${droppedRequests} older ones not listed` : ''}):`, ...requests.slice(requests.length - keptRequests));
      budget -= estimateTokens(requestBlock[0]!) + 1;
    }

    // Files changed (and moved away) first, newest first; files only read after them, as room allows.
    const newest = [...this.files].reverse();
    const shown: Record<FileTouch, string[]> = { modified: [], moved: [], read: [] };
    let listed = 0;
    for (const touch of ['modified', 'moved'] as const) {
      for (const [p, t] of newest) if (t === touch && listed < MAX_LISTED_FILES) shown[touch].push(p), listed++;
    }
    if (this.files.size > 0) budget -= estimateTokens(`Files touched: (modified); (moved away); (read) (+${this.files.size} more)`) + [...shown.modified, ...shown.moved].reduce((n, f) => n + estimateTokens(f) + 1, 0);

    const keep = new Set<number>();
    const take = (i: number): boolean => {
      const cost = estimateTokens(this.lines[i]!) + 2;
      if (cost > budget) return false;
      budget -= cost;
      keep.add(i);
      return true;
    };
    // Steps that say what exists or what was changed (a listing's names, a move) outlive the rest.
    for (let i = this.lines.length - 1; i >= 0; i--) if (isFactLine(this.lines[i]!)) take(i);
    for (const [p] of newest.filter(([, t]) => t === 'read')) {
      const cost = estimateTokens(p) + 1;
      if (listed >= MAX_LISTED_FILES || cost > budget) break;
      budget -= cost;
      shown.read.push(p);
      listed++;
    }
    // Then every other step, newest first, until the budget is spent.
    for (let i = this.lines.length - 1; i >= 0; i--) if (!keep.has(i) && !take(i)) break;

    const dropped = this.omitted + (this.lines.length - keep.size);
    const steps = this.lines.flatMap((l, i) => (keep.has(i) ? [`- ${l}`] : []));
    if (dropped > 0) steps.unshift(`- (${dropped} earlier steps not listed)`);
    if (requestBlock.length && steps.length) steps.unshift('Steps (oldest first):');
    const tail: string[] = [];
    if (this.files.size > 0) tail.push(renderFiles(shown, this.files.size - listed));
    if (todos) tail.push(todos);
    const text = [head, ...requestBlock, ...steps, ...tail].join('\n');
    this.rendered = { version: this.version, maxTokens, text };
    return text;
  }

  private addUser(history: readonly ChatMessage[], index: number, seen: ChatMessage): void {
    const original = unmarked(history[index]!.content).trim();
    const first = history.findIndex((m) => m.role === 'user') === index;
    if (!original || (!first && isNudge(original))) {
      this.push(`User: ${oneLine(unmarked(seen.content), 200)}`);
      return;
    }
    // Pinned: the request itself, from the original (the model may have seen a shortened copy).
    const request = pinnedText(original);
    const before = this.requests.indexOf(request);
    if (before >= 0) this.requests.splice(before, 1); // the same words again: keep one, at its newest place
    this.requests.push(request);
    if (this.requests.length > MAX_STORED_REQUESTS) this.requests.shift();
    this.push(`User request (kept above): ${oneLine(original, 80)}`);
  }

  /** Files a result touched (only when it succeeded), and the todo list it shows. */
  private noteResult(history: readonly ChatMessage[], index: number): void {
    const meta = toolResultMeta(history, index);
    const base = baseToolName(meta.tool);
    const content = unmarked(history[index]!.content);
    if (base === 'todo_write' || base === 'todo_read') {
      const list = parseTodoList(content);
      if (list) {
        this.version++;
        this.todos = list;
      }
      return;
    }
    if (base === 'list_directory' || base === 'search_files' || base === 'run_command') return;
    const call = findCall(history, index);
    const args = call ? parseArguments(call.arguments) : undefined;
    if (!args) return;
    if (MODIFYING_TOOLS.has(base)) {
      if (!resultSucceeded(history, index)) return; // a failed change touched nothing
      if (base === 'move_file') {
        const from = pathArg(args, ['source', 'path', 'from']);
        const to = pathArg(args, ['destination', 'target', 'to']);
        if (from) this.touch(from, 'moved');
        if (to) this.touch(to, 'modified');
        return;
      }
      for (const p of pathArgs(args)) this.touch(p, 'modified');
      return;
    }
    if (!resultSucceeded(history, index)) return;
    for (const p of pathArgs(args)) this.touch(p, 'read');
  }

  private touch(path: string, touch: FileTouch): void {
    this.version++;
    const before = this.files.get(path);
    this.files.delete(path); // re-insert so the map stays in order of last touch
    // A read does not undo a change; a move or a new change replaces what was known about the path.
    this.files.set(path, touch === 'read' && before === 'modified' ? 'modified' : touch);
  }

  private renderTodos(): string {
    if (!this.todos) return '';
    const total = this.todos.length;
    const done = this.todos.filter((t) => t.status === 'done').length;
    if (total === 0) return 'Work left: the latest todo list was empty.';
    const open = this.todos.map((t, i) => ({ ...t, n: i + 1 })).filter((t) => t.status !== 'done');
    if (open.length === 0) return `Work left: all ${total} todos of the latest todo list were done.`;
    const shown = open.slice(0, MAX_LISTED_TODOS).map((t) => `${t.n}. [${todoMark(t)}] ${oneLine(t.text, 150)}`);
    const more = open.length > MAX_LISTED_TODOS ? `; (+${open.length - MAX_LISTED_TODOS} more)` : '';
    return `Work left (open todos of the latest todo list, ${done}/${total} done): ${shown.join('; ')}${more}`;
  }

  private push(line: string): void {
    this.version++;
    this.lines.push(line);
    if (this.lines.length > MAX_STORED_LINES) {
      this.lines.shift();
      this.omitted++;
    }
  }
}

/** "Files touched: a.ts, b.ts (modified); c.txt (moved away); d.ts (read)": one label per group keeps it short. */
function renderFiles(shown: Record<FileTouch, string[]>, more: number): string {
  const label = { modified: 'modified', moved: 'moved away', read: 'read' } as const;
  const groups = (['modified', 'moved', 'read'] as const).filter((t) => shown[t].length).map((t) => `${shown[t].join(', ')} (${label[t]})`);
  const rest = more > 0 ? `(+${more} more)` : '';
  return `Files touched: ${[groups.join('; '), rest].filter(Boolean).join(' ')}`;
}

// Summary lines of these tools say what exists or what changed: a weak model needs them longest.
const FACT_TOOLS = new Set(['list_directory', 'list_directory_with_sizes', 'directory_tree', 'search_files', ...MODIFYING_TOOLS]);

function isFactLine(line: string): boolean {
  const tool = /^Tool (\S+)/.exec(line)?.[1];
  return tool !== undefined && FACT_TOOLS.has(baseToolName(tool)) && !/: failed: /.test(line);
}

/** A request on one line; a huge one keeps its head and its tail (where "then run the tests" tends to be). */
function pinnedText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= REQUEST_CHARS) return flat;
  const tail = Math.floor(REQUEST_CHARS / 4);
  return `${flat.slice(0, REQUEST_CHARS - tail - 3).trimEnd()} … ${flat.slice(flat.length - tail).trimStart()}`;
}

function pathArg(args: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = args[k];
    if (typeof v === 'string' && v.trim()) return v;
  }
  return undefined;
}

function pathArgs(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of ['path', 'file', 'file_path', 'source', 'destination']) {
    const v = args[k];
    if (typeof v === 'string' && v.trim()) out.push(v);
  }
  const many = args.paths;
  if (Array.isArray(many)) for (const v of many) if (typeof v === 'string' && v.trim()) out.push(v);
  return out;
}

function isIndexSummaryCopy(m: ChatMessage): boolean {
  return isCompressed(m) && m.content.includes(`\n${INDEX_SUMMARY_LABEL}`);
}

function withMessage(history: readonly ChatMessage[], index: number, m: ChatMessage): ChatMessage[] {
  const copy = [...history];
  copy[index] = m;
  return copy;
}
