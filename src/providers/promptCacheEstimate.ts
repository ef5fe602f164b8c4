// Where a server does not say how much of a prompt it reused from its cache (LM Studio; Ollama before
// `prompt_eval_cached_count`), estimate it from what was sent: local servers keep the previous request's tokens
// and re-read what follows the first difference, so the shared start of this request and the last one to the
// same model is roughly what was reused. An estimate, and the usage delta says so.
import type { ChatMessage, ToolDefinition } from '../core/messages';
import { argumentsToText } from '../core/messages';

/** Models remembered per provider (a server keeps one cached prompt per loaded model, or a few slots). */
const MAX_MODELS = 8;

export class PromptCacheEstimate {
  private readonly last = new Map<string, string>();

  /** Records this request; returns how to turn the server's prompt count into an estimate of the reused part. */
  begin(model: string, messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): (promptTokens: number) => number {
    const rendered = render(messages, tools);
    const previous = this.last.get(model) ?? '';
    this.last.delete(model);
    this.last.set(model, rendered);
    if (this.last.size > MAX_MODELS) this.last.delete(this.last.keys().next().value as string);
    const shared = commonPrefix(previous, rendered);
    const share = rendered.length ? shared / rendered.length : 0;
    return (promptTokens) => Math.max(0, Math.min(promptTokens, Math.floor(promptTokens * share)));
  }
}

/** The order chat templates render a request in: the system text, the tool list, then the conversation. */
function render(messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): string {
  const [first, ...rest] = messages;
  const system = first?.role === 'system' ? first.content : '';
  const conversation = first?.role === 'system' ? rest : messages;
  const parts = [system, JSON.stringify(tools)];
  for (const m of conversation) {
    parts.push(`${m.role}\n${m.content}`);
    for (const c of m.toolCalls ?? []) parts.push(`${c.name}${argumentsToText(c.arguments)}`);
  }
  return parts.join('\n');
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
