// The running session summary: what happened in messages that left the prompt, and which files were touched.
// Built deterministically from the messages themselves, so eviction never needs the model.
import type { ChatMessage } from '../messages';
import { estimateTokens } from '../tokens';
import type { Unit } from './layout';
import { oneLine, parseArguments, unmarked } from './marker';
import { toolResultMeta } from './metadata';

export type FileTouch = 'read' | 'modified';

/** The serialisable form, for persistence. */
export interface SummaryState {
  lines: string[];
  /** Lines dropped from the front to keep the summary small. */
  omitted: number;
  files: Array<[path: string, touch: FileTouch]>;
}

const MODIFYING_TOOLS = new Set(['edit_file', 'write_file', 'move_file', 'delete_file', 'create_file', 'apply_patch']);
const MAX_STORED_LINES = 200;
const MAX_LISTED_FILES = 40;

export class RunningSummary {
  private lines: string[] = [];
  private omitted = 0;
  private readonly files = new Map<string, FileTouch>();
  /** Bumped on every change, so render() can reuse its last result (it runs on every measurement). */
  private version = 0;
  private rendered: { version: number; maxTokens: number; text: string } | undefined;

  static from(state: SummaryState | undefined): RunningSummary {
    const s = new RunningSummary();
    if (!state) return s;
    s.lines = [...state.lines];
    s.omitted = state.omitted;
    for (const [path, touch] of state.files) s.files.set(path, touch);
    return s;
  }

  get empty(): boolean {
    return this.lines.length === 0 && this.omitted === 0 && this.files.size === 0;
  }

  toState(): SummaryState {
    return { lines: [...this.lines], omitted: this.omitted, files: [...this.files] };
  }

  filesTouched(): string[] {
    return [...this.files.keys()];
  }

  /** Records a unit leaving the prompt. `current(i)` is the message as the model last saw it. */
  addUnit(history: readonly ChatMessage[], unit: Unit, current: (index: number) => ChatMessage): void {
    for (let i = unit.start; i < unit.end; i++) {
      const m = current(i);
      if (m.role === 'user') this.push(`User: ${oneLine(unmarked(m.content), 200)}`);
      else if (m.role === 'assistant') {
        const text = unmarked(m.content).trim();
        if (text) this.push(`Assistant: ${oneLine(text, 200)}`);
        for (const call of m.toolCalls ?? []) this.noteFiles(call.name, parseArguments(call.arguments));
      } else if (m.role === 'tool') {
        this.push(`Tool ${this.toolLine(history, i)}`);
      }
    }
  }

  /** The block added to the system prompt; the newest lines survive when it must fit `maxTokens`. */
  render(maxTokens: number): string {
    if (this.empty) return '';
    if (this.rendered && this.rendered.version === this.version && this.rendered.maxTokens === maxTokens) return this.rendered.text;
    const head = '# Session summary\nEarlier messages left the context window to make room. What happened in them:';
    const files = this.renderFiles();
    // Newest lines first until the budget is spent (the note on dropped lines and the files line are reserved for).
    let budget = maxTokens - estimateTokens(head) - estimateTokens(files) - 12;
    let kept = 0;
    for (let i = this.lines.length - 1; i >= 0; i--) {
      const cost = estimateTokens(this.lines[i]!) + 2;
      if (cost > budget) break;
      budget -= cost;
      kept++;
    }
    const dropped = this.omitted + (this.lines.length - kept);
    const body = this.lines.slice(this.lines.length - kept).map((l) => `- ${l}`);
    if (dropped > 0) body.unshift(`- (${dropped} earlier steps not listed)`);
    const text = [head, ...body, ...(files ? [files] : [])].join('\n');
    this.rendered = { version: this.version, maxTokens, text };
    return text;
  }

  private toolLine(history: readonly ChatMessage[], index: number): string {
    const meta = toolResultMeta(history, index);
    const target = meta.command ? `\`${oneLine(meta.command, 80)}\`` : (meta.file ?? '');
    const outcome = meta.exitCode !== undefined ? `exit code ${meta.exitCode}` : meta.failed ? 'failed' : 'ok';
    return `${meta.tool}${target ? ' ' + target : ''}${meta.destination ? ' → ' + meta.destination : ''}: ${outcome}`;
  }

  private noteFiles(tool: string, args: Record<string, unknown> | undefined): void {
    if (!args) return;
    const touch: FileTouch = MODIFYING_TOOLS.has(tool) ? 'modified' : 'read';
    for (const key of ['path', 'file', 'file_path', 'source', 'destination']) {
      const v = args[key];
      if (typeof v !== 'string' || !v.trim() || (tool === 'list_directory' && key === 'path') || tool === 'search_files') continue;
      this.version++;
      const before = this.files.get(v);
      this.files.delete(v); // re-insert so the map stays in order of last touch
      this.files.set(v, before === 'modified' ? 'modified' : touch);
    }
  }

  private renderFiles(): string {
    if (this.files.size === 0) return '';
    const entries = [...this.files].reverse(); // newest first
    const shown = entries.slice(0, MAX_LISTED_FILES).map(([p, t]) => `${p} (${t})`);
    const more = entries.length > MAX_LISTED_FILES ? ` (+${entries.length - MAX_LISTED_FILES} more)` : '';
    return `Files touched: ${shown.join(', ')}${more}`;
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
