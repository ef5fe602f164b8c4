// Where a server does not say how much of a prompt it reused from its cache (LM Studio; Ollama before
// `prompt_eval_cached_count`), estimate it from what was sent: local servers keep the previous request's tokens
// and re-read what follows the first difference, so the shared start of this request and the last one to the
// same model is roughly what was reused. An estimate, and the usage delta says so.
import type { ChatMessage, ToolDefinition } from '../core/messages';
import { argumentsToText, modelText } from '../core/messages';

/** Models remembered per provider (a server keeps one cached prompt per loaded model, or a few slots). */
const MAX_MODELS = 8;

/** A request as sent. Messages are never changed once sent, so rendering it later gives what was sent. */
interface Sent {
  messages: readonly ChatMessage[];
  tools: readonly ToolDefinition[];
}

export class PromptCacheEstimate {
  private readonly last = new Map<string, Sent>();
  /** Each message's rendering, kept while the message object lives (a long chat is not rendered again per request). */
  private readonly rendered = new WeakMap<ChatMessage, string>();
  /** The tool list's rendering per list (the session hands out the same array while the tools are the same). */
  private readonly toolsRendered = new WeakMap<readonly ToolDefinition[], string>();

  /**
   * Records this request; returns how to turn the server's prompt count into an estimate of the reused part.
   * Nothing is rendered unless the estimate is asked for (a server that reports its cached count never does).
   */
  begin(model: string, messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): (promptTokens: number) => number {
    // A copy of the list (not of the messages): a caller may reuse its array for the next request.
    const sent: Sent = { messages: [...messages], tools };
    const previous = this.last.get(model);
    this.last.delete(model);
    this.last.set(model, sent);
    if (this.last.size > MAX_MODELS) this.last.delete(this.last.keys().next().value as string);
    let share: number | undefined;
    return (promptTokens) => {
      share ??= this.sharedShare(sent, previous);
      return Math.max(0, Math.min(promptTokens, Math.floor(promptTokens * share)));
    };
  }

  /**
   * The share of this request's rendering that matches the start of the last one begun for the model (0 when there
   * was none): roughly what the server keeps, so 1 minus it is what it must read. Call before `begin`.
   */
  reusedShare(model: string, messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): number {
    return this.sharedShare({ messages, tools }, this.last.get(model));
  }

  /** The share of this request's rendering that matches the start of the previous one. */
  private sharedShare(now: Sent, before: Sent | undefined): number {
    const parts = this.parts(now);
    const previous = before ? this.parts(before) : [];
    let shared = 0;
    let total = 0;
    let differs = false;
    for (const [i, part] of parts.entries()) {
      total += part.length;
      if (differs) continue;
      const was = previous[i];
      if (was === part) shared += part.length;
      else {
        differs = true;
        if (was !== undefined) shared += commonPrefix(was, part);
      }
    }
    return total ? shared / total : 0;
  }

  /** The order chat templates render a request in: the system text, the tool list, then the conversation. */
  private parts({ messages, tools }: Sent): string[] {
    const [first, ...rest] = messages;
    const system = first?.role === 'system' ? first.content : '';
    let toolText = this.toolsRendered.get(tools);
    if (toolText === undefined) {
      toolText = JSON.stringify(tools);
      this.toolsRendered.set(tools, toolText);
    }
    const conversation = first?.role === 'system' ? rest : messages;
    return [system, toolText, ...conversation.map((m) => this.message(m))];
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
