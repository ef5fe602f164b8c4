// A fake server that runs a SMALLER window than it is asked for, the way Ollama does when its loaded context
// is below num_ctx (or LM Studio with a rolling-window overflow policy): a request over the window is not
// refused; the oldest non-system messages are dropped, whole, until the rest fits, the model answers what is
// left (so a pure scripted model sees the cut request), and the reply reports the tokens it kept as
// `prompt_eval_count` / `usage.prompt_tokens`. Tokens are the conservative chars/3.5 proxy of
// test/integration/contextWindow/windowedServer.ts. Every request is recorded.
import type { ChatBody, Script, ScriptedReply } from '../fakeLlm';
import { proxyPromptTokens } from '../../integration/contextWindow/windowedServer';
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
  constructor(readonly window: number) {}

  get cuts(): WindowRecord[] {
    return this.records.filter((r) => r.cut);
  }

  get agentRecords(): WindowRecord[] {
    return this.records.filter((r) => !r.compression);
  }

  script(agent: ReplyFn, compressor: ReplyFn): Script {
    return (request, index) => {
      const sentTokens = proxyPromptTokens(request);
      const kept = fitWindow(request, this.window);
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

/** Drops the oldest non-system messages until the request fits `window` (the last message always stays). */
export function fitWindow(request: ChatBody, window: number): { request: ChatBody; dropped: number } {
  const messages = [...(request.messages ?? [])];
  let dropped = 0;
  const size = () => proxyPromptTokens({ ...request, messages });
  while (size() > window) {
    const oldest = messages.findIndex((m, i) => m.role !== 'system' && i < messages.length - 1);
    if (oldest < 0) break;
    messages.splice(oldest, 1);
    dropped++;
  }
  return { request: { ...request, messages }, dropped };
}

function numCtxOf(request: ChatBody): number | undefined {
  const options = request.options as Record<string, unknown> | undefined;
  return typeof options?.num_ctx === 'number' ? options.num_ctx : undefined;
}
