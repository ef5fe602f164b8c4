// Where a server does not say how much of a prompt it reused from its cache (LM Studio; Ollama before
// `prompt_eval_cached_count`), estimate it from what was sent: local servers keep the previous request's tokens
// and re-read what follows the first difference, so the shared start of this request and the last one to the
// same model is roughly what was reused. An estimate, and the usage delta says so.
import type { ChatMessage, ToolDefinition } from '../core/messages';
import { argumentsToText, modelText } from '../core/messages';

/** Models remembered per provider (a server keeps one cached prompt per loaded model, or a few slots). */
const MAX_MODELS = 8;

export class PromptCacheEstimate {
  private readonly last = new Map<string, string[]>();
  /** Each message's rendering, kept while the message object lives (a long chat is not rendered again per request). */
  private readonly rendered = new WeakMap<ChatMessage, string>();
  private toolsRendered: { tools: readonly ToolDefinition[]; text: string } | undefined;

  /** Records this request; returns how to turn the server's prompt count into an estimate of the reused part. */
  begin(model: string, messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): (promptTokens: number) => number {
    const parts = this.parts(messages, tools);
    const previous = this.last.get(model) ?? [];
    this.last.delete(model);
    this.last.set(model, parts);
    if (this.last.size > MAX_MODELS) this.last.delete(this.last.keys().next().value as string);
    let shared = 0;
    let total = 0;
    let differs = false;
    for (const [i, part] of parts.entries()) {
      total += part.length;
      if (differs) continue;
      const before = previous[i];
      if (before === part) shared += part.length;
      else {
        differs = true;
        if (before !== undefined) shared += commonPrefix(before, part);
      }
    }
    const share = total ? shared / total : 0;
    return (promptTokens) => Math.max(0, Math.min(promptTokens, Math.floor(promptTokens * share)));
  }

  /** The order chat templates render a request in: the system text, the tool list, then the conversation. */
  private parts(messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): string[] {
    const [first, ...rest] = messages;
    const system = first?.role === 'system' ? first.content : '';
    if (this.toolsRendered?.tools !== tools) this.toolsRendered = { tools, text: JSON.stringify(tools) };
    const conversation = first?.role === 'system' ? rest : messages;
    return [system, this.toolsRendered.text, ...conversation.map((m) => this.message(m))];
  }

  private message(m: ChatMessage): string {
    let text = this.rendered.get(m);
    if (text === undefined) {
      text = [`${m.role}\n${modelText(m)}`, ...(m.toolCalls ?? []).map((c) => `${c.name}${argumentsToText(c.arguments)}`)].join('\n');
      this.rendered.set(m, text);
    }
    return text;
  }
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
