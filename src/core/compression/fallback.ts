// The deterministic fallback, for when the model fails the compression pass or is too weak for it:
// older tool results are replaced by their digests (every listed name, every search hit, the exit code …;
// see digest.ts), the last rounds stay whole.
// Only when that is not enough does it reach into the recent rounds (never the latest tool results) and
// shorten old user/assistant text. It stops as soon as the request is under the target.
import type { ChatMessage } from '../messages';
import { digestToolResult } from './toolResultDigest';
import { clip, markCompressed, shortenToolCalls } from './marker';
import type { CompressionScope } from './scope';

/** Tool-call argument strings in compressed assistant messages are cut to this length. */
export const ARGUMENT_CHARS = 200;

export function compressByRules(scope: CompressionScope): number {
  let changed = 0;
  const pass = (end: number, stage: 'old' | 'recent') => {
    for (let i = 0; i < end && scope.overTarget(); i++) {
      if (!scope.canCompress(i)) continue;
      const replacement = ruleCompression(scope, i, stage);
      if (replacement && scope.meter.message(replacement) < scope.meter.message(scope.current(i))) {
        scope.replace(i, replacement, 'fallback');
        changed++;
      }
    }
  };
  pass(scope.layout.keepWholeStart, 'old');
  if (scope.overTarget()) pass(scope.history.length, 'recent');
  return changed;
}

function ruleCompression(scope: CompressionScope, index: number, stage: 'old' | 'recent'): ChatMessage | undefined {
  const m = scope.history[index]!;
  const s = scope.settings;
  if (m.role === 'tool') return compressedToolResult(scope.history, index, s.fallbackToolResultChars);
  if (m.role === 'assistant') {
    const calls = m.toolCalls ? shortenToolCalls(m.toolCalls, ARGUMENT_CHARS) : undefined;
    const maxChars = s.assistantSummaryTokens * 4;
    const textLong = m.content.length > maxChars;
    if (stage === 'old' && calls === m.toolCalls) return undefined; // in old rounds only the bulky arguments go first
    if (!textLong && calls === m.toolCalls) return undefined;
    const out: ChatMessage = { role: 'assistant', content: markCompressed(textLong ? clip(m.content, maxChars) : m.content) };
    if (calls) out.toolCalls = calls;
    return out;
  }
  if (m.role === 'user' && stage === 'recent') {
    const maxChars = s.userSummaryTokens * 4;
    if (m.content.length <= maxChars) return undefined;
    return { role: 'user', content: markCompressed(clip(m.content, maxChars)) };
  }
  return undefined;
}

/**
 * A tool result replaced by its digest: the metadata line, the facts a model acts on, the model's note when
 * there is one (added, never instead of the facts) and how to get the full result back. `headChars` is what
 * is kept of a result no digest rule understands.
 */
export function compressedToolResult(history: readonly ChatMessage[], index: number, headChars: number, note?: string): ChatMessage {
  const m = history[index]!;
  const out: ChatMessage = { role: 'tool', content: digestToolResult(history, index, { headChars, ...(note && { note }) }) };
  if (m.toolCallId !== undefined) out.toolCallId = m.toolCallId;
  if (m.toolName !== undefined) out.toolName = m.toolName;
  return out;
}
