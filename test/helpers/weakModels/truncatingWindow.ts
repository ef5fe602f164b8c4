// A fake server that runs a SMALLER window than it is asked for, the way Ollama does when its loaded context
// is below num_ctx (or LM Studio with a rolling-window overflow policy): a request over the window is not
// refused; the oldest non-system messages are dropped until the rest fits, the model answers what is left
// (so a pure scripted model sees the cut request), and the reply reports the tokens it kept as
// `prompt_eval_count` / `usage.prompt_tokens`. Tokens are the conservative chars/3.5 proxy of
// test/helpers/fakeLlm/windowedScript.ts. Every request is recorded.
//   cut 'tokens' (default): Ollama's runner keeps the start (the system prompt) and cuts tokens after it, so
//     the newest part of the last dropped message stays and the count is the window, give or take a token.
//   cut 'messages': whole messages only, as Ollama's chat template step does when num_ctx itself is small;
//     the count is then anywhere up to a message's size below the window.
import type { ChatBody, Script, ScriptedReply } from '../fakeLlm';
import { proxyPromptTokens } from '../fakeLlm/windowedScript';
import { isCompressionRequest } from './compressionModels';

export type ReplyFn = (request: ChatBody, index: number) => ScriptedReply | undefined;

export interface WindowRecord {
  index: number;
  /** Proxy tokens of the request as the client sent it. */
  sentTokens: number;
  /** Proxy tokens of what the model was given. */
  keptTokens: number;
  cut: boolean;
  droppedMessages: number;
  /** The request offered tools. */
  tools: boolean;
  /** A request of the compression agent (it offers get_compression_metadata). */
  compression: boolean;
  /** Ollama's options.num_ctx, when sent. */
  numCtx?: number;
}

export class TruncatingWindow {
  readonly records: WindowRecord[] = [];

  /** `window`: the tokens the server really runs, whatever the request asks for. */
  constructor(
    readonly window: number,
    private readonly cut: 'tokens' | 'messages' = 'tokens',
  ) {}

  get cuts(): WindowRecord[] {
    return this.records.filter((r) => r.cut);
  }

  get agentRecords(): WindowRecord[] {
    return this.records.filter((r) => !r.compression);
  }

  script(agent: ReplyFn, compressor: ReplyFn): Script {
    return (request, index) => {
      const sentTokens = proxyPromptTokens(request);
      const kept = fitWindow(request, this.window, this.cut);
      const keptTokens = proxyPromptTokens(kept.request);
      const compression = isCompressionRequest(request);
      const numCtx = numCtxOf(request);
      this.records.push({
        index,
        sentTokens,
        keptTokens,
        cut: kept.dropped > 0 || sentTokens > this.window,
        droppedMessages: kept.dropped,
        tools: Array.isArray(request.tools) && request.tools.length > 0,
        compression,
        ...(numCtx !== undefined && { numCtx }),
      });
      const reply = (compression ? compressor : agent)(kept.request, index);
      if (!reply) return undefined;
      return { ...reply, usage: { prompt: Math.max(1, Math.min(this.window, keptTokens)), completion: reply.usage?.completion ?? 12 } };
    };
  }
}

/**
 * Drops the oldest non-system messages until the request fits `window` (the last message always stays).
 * With cut 'tokens', the end of the last dropped message's text then fills what room is left.
 */
export function fitWindow(request: ChatBody, window: number, cut: 'tokens' | 'messages' = 'messages'): { request: ChatBody; dropped: number } {
  const messages = [...(request.messages ?? [])];
  let dropped = 0;
  let last: Record<string, unknown> | undefined;
  let at = 0;
  const size = (list = messages) => proxyPromptTokens({ ...request, messages: list });
  while (size() > window) {
    const oldest = messages.findIndex((m, i) => m.role !== 'system' && i < messages.length - 1);
    if (oldest < 0) break;
    [last] = messages.splice(oldest, 1);
    at = oldest;
    dropped++;
  }
  const text = typeof last?.content === 'string' ? last.content : '';
  if (cut === 'tokens' && last && text && last.role !== 'assistant') {
    // The longest tail of the dropped text that still fits (its tool_call_id / tool_name stay with it).
    const withTail = (chars: number) => [...messages.slice(0, at), { ...last, content: `…${text.slice(text.length - chars)}` }, ...messages.slice(at)];
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (size(withTail(mid)) <= window) lo = mid;
      else hi = mid - 1;
    }
    if (lo > 0) messages.splice(0, messages.length, ...withTail(lo));
  }
  return { request: { ...request, messages }, dropped };
}

function numCtxOf(request: ChatBody): number | undefined {
  const options = request.options as Record<string, unknown> | undefined;
  return typeof options?.num_ctx === 'number' ? options.num_ctx : undefined;
}
