// The compression agent's four tools, working on a CompressionScope: list what may be compressed, replace a
// tool result with its digest (plus the model's note), rewrite user/assistant messages as short summaries,
// check the target.
import type { ChatMessage, ToolCall, ToolDefinition } from '../messages';
import { estimateTokens } from '../tokens';
import { formatCount } from '../formatCount';
import { compressedToolResult, ARGUMENT_CHARS } from './fallback';
import { clip, markCompressed, oneLine, parseArguments, shortenToolCalls } from './marker';
import { describeMeta, toolResultMeta } from './metadata';
import type { CompressionScope } from './scope';

export const COMPRESSION_TOOLS: ToolDefinition[] = [
  {
    name: 'get_compression_metadata',
    description:
      'List the messages you may compress, oldest first, with ids, sizes and excerpts. Pass offset to page on, or id to read one message in full.',
    parameters: {
      type: 'object',
      properties: { offset: { type: 'integer', minimum: 0 }, id: { type: 'integer', minimum: 0 } },
    },
  },
  {
    name: 'compress_tool_result',
    description: 'Replace a tool result with a short digest of its facts (names listed, search hits, lines read, exit code), built for you. Add a short note of what mattered in it.',
    parameters: {
      type: 'object',
      properties: { id: { type: 'integer' }, note: { type: 'string', description: 'At most one sentence.' } },
      required: ['id'],
    },
  },
  {
    name: 'compress_conversation_segment',
    description:
      'Rewrite user and assistant messages as short summaries: user messages in about 50 tokens (keep the request, intent and technical details), assistant messages in about 200 tokens (keep decisions, explanations and code changes).',
    parameters: {
      type: 'object',
      properties: {
        messages: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'integer' }, summary: { type: 'string' } },
            required: ['id', 'summary'],
          },
        },
      },
      required: ['messages'],
    },
  },
  {
    name: 'verify_compression_target',
    description: 'Check whether the conversation is now under the target size.',
    parameters: { type: 'object', properties: {} },
  },
];

export interface ToolOutcome {
  content: string;
  /** Messages this call compressed. */
  compressed: number;
  /** The call was understood (known tool, usable arguments). */
  valid: boolean;
}

const PAGE_EXCERPT_TOOL = 120;
/** Smaller messages are not listed: a summary would save little and cost the model a call. */
export const MIN_LISTED_TOKENS = 40;
const PAGE_EXCERPT_TEXT = 600;

export class CompressionTools {
  constructor(
    private readonly scope: CompressionScope,
    /** Token budget for one listing (keeps the agent's own prompt inside the window). */
    private readonly pageTokens: number,
  ) {}

  run(call: ToolCall): ToolOutcome {
    const args = parseArguments(call.arguments ?? {}) ?? (call.arguments === '' ? {} : undefined);
    if (!args) return invalid(`The arguments of ${call.name} are not a JSON object. Call it again with valid JSON.`);
    switch (call.name) {
      case 'get_compression_metadata':
        return { content: this.metadata(args), compressed: 0, valid: true };
      case 'compress_tool_result':
        return this.compressToolResult(args);
      case 'compress_conversation_segment':
        return this.compressSegment(args);
      case 'verify_compression_target':
        return { content: this.verify(), compressed: 0, valid: true };
      default:
        return invalid(`There is no tool named ${call.name}. Use ${COMPRESSION_TOOLS.map((t) => t.name).join(', ')}.`);
    }
  }

  status(): string {
    const s = this.scope;
    const total = s.total();
    const pct = Math.round((total / s.window) * 100);
    const left = total > s.target ? `; ${formatCount(total - s.target)} tokens to go` : '; the target is met';
    return `Context: ${formatCount(total)} of ${formatCount(s.window)} tokens (${pct}%), target ≤ ${formatCount(s.target)}${left}.`;
  }

  metadata(args: Record<string, unknown>): string {
    const s = this.scope;
    const id = integer(args.id);
    if (id !== undefined) {
      if (!s.canCompress(id)) return `Message #${id} cannot be compressed (protected, already compressed, or no such id).`;
      const m = s.current(id);
      return `#${id} ${m.role} (~${s.tokensOf(id)} tokens):\n${clip(m.content, this.pageTokens * 3)}`;
    }
    const candidates = s.candidates(MIN_LISTED_TOKENS);
    const offset = Math.max(0, integer(args.offset) ?? 0);
    const lines: string[] = [];
    let used = 0;
    let shown = 0;
    for (const i of candidates.slice(offset)) {
      const line = this.describe(i);
      const cost = estimateTokens(line);
      if (shown > 0 && used + cost > this.pageTokens) break;
      lines.push(line);
      used += cost;
      shown++;
    }
    if (candidates.length === 0) return `${this.status()}\nNothing left that may be compressed.`;
    const paging =
      offset + shown < candidates.length
        ? `\n(showing ${offset + 1}-${offset + shown} of ${candidates.length}; call again with offset=${offset + shown})`
        : '';
    return `${this.status()}\nMessages you may compress (oldest first):\n${lines.join('\n')}${paging}`;
  }

  verify(): string {
    const s = this.scope;
    if (!s.overTarget()) return `${this.status()} Done: stop now.`;
    const biggest = s
      .candidates(MIN_LISTED_TOKENS)
      .map((i) => ({ i, t: s.tokensOf(i) }))
      .sort((a, b) => b.t - a.t)
      .slice(0, 5)
      .map((c) => `#${c.i} (~${c.t})`);
    return `${this.status()} Not yet.${biggest.length ? ` Largest remaining: ${biggest.join(', ')}.` : ' Nothing left that may be compressed.'}`;
  }

  private describe(i: number): string {
    const s = this.scope;
    const m = s.current(i);
    const tokens = `~${s.tokensOf(i)} tok`;
    if (m.role === 'tool') {
      const meta = describeMeta(toolResultMeta(s.history, i));
      return `#${i} tool result ${tokens}: ${meta} | ${oneLine(m.content, PAGE_EXCERPT_TOOL)}`;
    }
    const calls = m.toolCalls?.length ? ` calls ${m.toolCalls.map((c) => c.name).join(', ')}` : '';
    return `#${i} ${m.role} ${tokens}${calls}: ${oneLine(m.content, PAGE_EXCERPT_TEXT) || '(no text)'}`;
  }

  private compressToolResult(args: Record<string, unknown>): ToolOutcome {
    const s = this.scope;
    const id = integer(args.id);
    if (id === undefined) return invalid('compress_tool_result needs an integer "id" from get_compression_metadata.');
    if (s.history[id]?.role !== 'tool') return invalid(`#${id} is not a tool result.`);
    if (!s.canCompress(id)) return { content: `#${id} cannot be compressed (protected, already compressed, or never compressed).`, compressed: 0, valid: true };
    const note = typeof args.note === 'string' && args.note.trim() ? clip(args.note.replace(/\s+/g, ' '), 300) : undefined;
    const before = s.tokensOf(id);
    // The note is added to the digest, never instead of it: a weak model's "already handled" must not erase
    // the names a listing gave.
    const replacement = compressedToolResult(s.history, id, s.settings.fallbackToolResultChars, note);
    if (s.meter.message(replacement) >= s.meter.message(s.current(id))) {
      return { content: `#${id} kept: it is already about as small as its digest. ${this.status()}`, compressed: 0, valid: true };
    }
    s.replace(id, replacement, 'llm');
    return { content: `Compressed #${id}: ~${before} → ~${s.tokensOf(id)} tokens. ${this.status()}`, compressed: 1, valid: true };
  }

  private compressSegment(args: Record<string, unknown>): ToolOutcome {
    // Weak models often send a single {id, summary}; accept that too.
    const raw = Array.isArray(args.messages) ? args.messages : args.id !== undefined ? [args] : undefined;
    if (!raw) return invalid('compress_conversation_segment needs "messages": [{"id": <id>, "summary": "<text>"}].');
    const notes: string[] = [];
    let compressed = 0;
    let understood = 0;
    for (const item of raw) {
      const entry = item && typeof item === 'object' ? (item as Record<string, unknown>) : {};
      const id = integer(entry.id);
      const summary = typeof entry.summary === 'string' ? entry.summary.trim() : '';
      if (id === undefined || !summary) {
        notes.push('an entry without an integer id and a summary was skipped');
        continue;
      }
      understood++;
      if (this.compressOne(id, summary)) {
        compressed++;
        notes.push(`#${id} compressed`);
      } else notes.push(this.refusal(id, summary));
    }
    return { content: `${notes.join('; ')}. ${this.status()}`, compressed, valid: understood > 0 };
  }

  private compressOne(id: number, summary: string): boolean {
    const s = this.scope;
    const m = s.history[id];
    if (!m || (m.role !== 'user' && m.role !== 'assistant') || !s.canCompress(id)) return false;
    const cap = m.role === 'user' ? s.settings.userSummaryTokens : s.settings.assistantSummaryTokens;
    // Allow some slack over the asked size, then cut: a summary must never cost more than the original.
    const text = estimateTokens(summary) > cap * 1.5 ? clip(summary, cap * 4) : summary;
    const out: ChatMessage = { role: m.role, content: markCompressed(text) };
    if (m.toolCalls) out.toolCalls = shortenToolCalls(m.toolCalls, ARGUMENT_CHARS);
    if (s.meter.message(out) >= s.meter.message(s.current(id))) return false;
    s.replace(id, out, 'llm');
    return true;
  }

  private refusal(id: number, summary: string): string {
    const m = this.scope.history[id];
    if (!m) return `#${id} does not exist`;
    if (m.role !== 'user' && m.role !== 'assistant') return `#${id} is a ${m.role} message (use compress_tool_result)`;
    if (!this.scope.canCompress(id)) return `#${id} is protected or already compressed`;
    return `#${id} kept: the summary (${summary.length} chars) is not shorter than the message`;
  }
}

function invalid(content: string): ToolOutcome {
  return { content, compressed: 0, valid: false };
}

function integer(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v.replace(/^#/, '')) : v;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
}
