// What the model pass may change and how: the list of messages it may summarise (oldest first, with ids and
// excerpts), and applying one summary — a tool result becomes its digest plus the model's note (never the note
// alone: a weak model's "already handled" must not erase the names a listing gave), a user or assistant message
// becomes a short marked summary. Nothing is applied that would not make the message smaller.
import type { ChatMessage } from '../messages';
import { estimateTokens } from '../tokens';
import { formatCount } from '../../shared/format';
import { compressedToolResult, ARGUMENT_CHARS } from './fallback';
import { clip, markCompressed, oneLine, shortenToolCalls } from './marker';
import { describeMeta, toolResultMeta } from './metadata';
import type { CompressionScope } from './scope';

/** Smaller messages are not listed: a summary would save little and cost the model tokens. */
export const MIN_LISTED_TOKENS = 40;
/**
 * Excerpts: a few words to tell a message apart when the model has the messages in front of it (the pass continues
 * the conversation), longer when it sees only the listing.
 */
const EXCERPTS = { brief: { tool: 0, text: 60 }, standalone: { tool: 400, text: 600 } } as const;
export type ListingDetail = keyof typeof EXCERPTS;

export type EditOutcome = { applied: true } | { applied: false; why: string };

export class SummaryEdits {
  constructor(private readonly scope: CompressionScope) {}

  status(): string {
    const s = this.scope;
    const total = s.total();
    const pct = Math.round((total / s.window) * 100);
    const left = total > s.target ? `; ${formatCount(total - s.target)} tokens to go` : '; the target is met';
    return `Context: ${formatCount(total)} of ${formatCount(s.window)} tokens (${pct}%), target ≤ ${formatCount(s.target)}${left}.`;
  }

  /** One line per message that may be summarised, oldest first, within `maxTokens`; '' when there is none. */
  listing(maxTokens: number, skip: ReadonlySet<number> = new Set(), detail: ListingDetail = 'brief'): { text: string; ids: number[] } {
    const lines: string[] = [];
    const ids: number[] = [];
    let used = 0;
    for (const i of this.scope.candidates(MIN_LISTED_TOKENS)) {
      if (skip.has(i)) continue;
      const line = this.describe(i, detail);
      const cost = estimateTokens(line);
      if (lines.length > 0 && used + cost > maxTokens) break;
      lines.push(line);
      ids.push(i);
      used += cost;
    }
    return { text: lines.join('\n'), ids };
  }

  apply(id: number, summary: string): EditOutcome {
    const s = this.scope;
    const m = s.history[id];
    if (!m) return { applied: false, why: `#${id} does not exist` };
    if (!s.canCompress(id)) return { applied: false, why: `#${id} is protected or already compressed` };
    const text = summary.replace(/\s+/g, ' ').trim();
    if (m.role === 'tool') {
      const replacement = compressedToolResult(s.history, id, s.settings.fallbackToolResultChars, text ? clip(text, 300) : undefined);
      if (s.meter.message(replacement) >= s.meter.message(s.current(id))) return { applied: false, why: `#${id} is already about as small as its digest` };
      s.replace(id, replacement, 'llm');
      return { applied: true };
    }
    if (m.role !== 'user' && m.role !== 'assistant') return { applied: false, why: `#${id} is a ${m.role} message` };
    if (!text) return { applied: false, why: `the summary of #${id} is empty` };
    const cap = m.role === 'user' ? s.settings.userSummaryTokens : s.settings.assistantSummaryTokens;
    // Allow some slack over the asked size, then cut: a summary must never cost more than the original.
    const kept = estimateTokens(text) > cap * 1.5 ? clip(text, cap * 4) : text;
    const out: ChatMessage = { role: m.role, content: markCompressed(kept) };
    if (m.toolCalls) out.toolCalls = shortenToolCalls(m.toolCalls, ARGUMENT_CHARS);
    if (s.meter.message(out) >= s.meter.message(s.current(id))) return { applied: false, why: `the summary of #${id} is not shorter than the message` };
    s.replace(id, out, 'llm');
    return { applied: true };
  }

  private describe(i: number, detail: ListingDetail): string {
    const s = this.scope;
    const m = s.current(i);
    const tokens = `~${s.tokensOf(i)} tok`;
    const chars = EXCERPTS[detail];
    const meta = describeMeta(toolResultMeta(s.history, i));
    if (m.role === 'tool') return `#${i} tool result ${tokens}: ${meta}${chars.tool ? ` | ${oneLine(m.content, chars.tool)}` : ''}`;
    const calls = m.toolCalls?.length ? ` calls ${m.toolCalls.map((c) => c.name).join(', ')}` : '';
    return `#${i} ${m.role} ${tokens}${calls}: ${oneLine(m.content, chars.text) || '(no text)'}`;
  }
}
