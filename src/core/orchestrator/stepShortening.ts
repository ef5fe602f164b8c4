// Shortening for the orchestrator's prompts: step results and earlier conversation cut to fit a budget, with a
// visible mark where text was removed (a weak model believes what it sees is complete otherwise).
import type { ChatMessage } from '../messages';
import type { StepRecord } from './planRequest';

export function clip(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const keep = Math.max(0, maxChars - 20);
  return `${text.slice(0, keep)} […${text.length - keep} chars cut]`;
}

/** Each step as "1. goal — ok: result", sharing `maxChars` fairly between the steps. */
export function digestSteps(records: readonly StepRecord[], maxChars: number): string {
  if (records.length === 0) return '(no steps ran)';
  const share = Math.max(200, Math.floor(maxChars / records.length) - 80);
  return records
    .map((r, i) => `${i + 1}. ${r.step.goal} — ${r.status}${r.summary ? `: ${r.summary}` : ''}${r.result && r.result !== r.summary ? `\n   ${clip(r.result, share).replace(/\n/g, '\n   ')}` : ''}`)
    .join('\n');
}

/** The user's and assistant's words of earlier turns (no tool traffic), newest kept when cut. */
export function digestConversation(history: readonly ChatMessage[], maxChars: number): string {
  const lines: string[] = [];
  let used = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if ((m.role !== 'user' && m.role !== 'assistant') || !m.content.trim() || m.toolCalls?.length) continue;
    const line = `${m.role}: ${clip(m.content.trim(), 600)}`;
    if (used + line.length > maxChars) break;
    lines.unshift(line);
    used += line.length;
  }
  return lines.join('\n');
}
