// Makes a scripted fake server behave like a real one with a small context window: every chat request is
// measured with a conservative token proxy (characters / 3.5 over the JSON of messages + tools, more than
// real tokenizers count for prose, code and JSON), a request over the window is refused the way llama.cpp
// refuses it and recorded, and every reply reports the proxy as its prompt count (`prompt_eval_count` /
// `usage.prompt_tokens`) so the client's calibration learns from it, and the reply's own proxy as its completion
// count (`eval_count` / `usage.completion_tokens`), as a real server counts what it generated.
import type { ChatBody, Script, ScriptedReply } from '.';
import { isCompressionRequest } from '../weakModels/compressionModels';

export const CHARS_PER_TOKEN = 3.5;

/** What the "server" counts for a request: the JSON of its messages and tool definitions / 3.5. */
export function proxyPromptTokens(request: ChatBody): number {
  const text = JSON.stringify(request.messages ?? []) + JSON.stringify(request.tools ?? []);
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export interface MeasuredRequest {
  index: number;
  tokens: number;
  /** The window the server ran this request with (Ollama: the num_ctx it was sent). */
  window: number;
  /** A request of the compression agent (a user message carries COMPRESSION_REQUEST_HEAD). */
  compression: boolean;
  /** The proxy count of the reply it got: a real server generates inside the same window, so prompt + reply must fit. */
  replyTokens: number;
}

export type ReplyFn = (request: ChatBody, index: number) => ScriptedReply | undefined;

export interface WindowedScriptOptions {
  /** The window a server without per-request num_ctx runs (LM Studio / llama.cpp loaded context). */
  window: number;
  /** Report this share of the measured prompt (below 1: a server that silently cut the prompt). Default 1. */
  reportShare?: number;
}

/** Wraps reply functions for the main agent and the compression agent into one window-enforcing script. */
export class WindowedScript {
  readonly measured: MeasuredRequest[] = [];

  constructor(private readonly options: WindowedScriptOptions) {}

  /** Requests over the window, with their reply: a server could not have produced that reply there (llama.cpp stops at the window, Ollama shifts it). */
  get overWindow(): MeasuredRequest[] {
    return this.measured.filter((m) => m.tokens + m.replyTokens > m.window);
  }

  get largest(): number {
    return Math.max(0, ...this.measured.map((m) => m.tokens));
  }

  script(agent: ReplyFn, compressor: ReplyFn = compressingModel): Script {
    let agentIndex = 0;
    let compressorIndex = 0;
    return (request, index) => {
      const compression = isCompressionRequest(request);
      const tokens = proxyPromptTokens(request);
      const window = requestWindow(request) ?? this.options.window;
      const measured: MeasuredRequest = { index, tokens, window, compression, replyTokens: 0 };
      this.measured.push(measured);
      if (tokens > window) {
        // llama-server's answer (Ollama would silently drop the start of the prompt; the test fails either way).
        return {
          fault: 'http500',
          status: 400,
          errorMessage: `the request exceeds the available context size (${tokens} tokens > ${window}), try increasing it`,
        };
      }
      const reply = compression ? compressor(request, compressorIndex++) : agent(request, agentIndex++);
      if (!reply) return undefined;
      measured.replyTokens = replyProxyTokens(reply);
      const prompt = Math.max(1, Math.round(tokens * (this.options.reportShare ?? 1)));
      return { ...reply, usage: { prompt, completion: reply.usage?.completion ?? Math.max(1, measured.replyTokens) } };
    };
  }
}

/** Ollama requests carry their window as options.num_ctx. */
function requestWindow(request: ChatBody): number | undefined {
  const options = request.options;
  if (options && typeof options === 'object' && 'num_ctx' in options) {
    const n = (options as Record<string, unknown>).num_ctx;
    if (typeof n === 'number') return n;
  }
  return undefined;
}

export function toolNamesOf(request: ChatBody): string[] {
  const tools = Array.isArray(request.tools) ? (request.tools as Array<{ function?: { name?: string } }>) : [];
  return tools.map((t) => t.function?.name ?? '');
}

export { isCompressionRequest };

export function lastMessage(request: ChatBody): { role: string; content: string } {
  const m = request.messages?.at(-1);
  return { role: String(m?.role ?? ''), content: typeof m?.content === 'string' ? m.content : '' };
}

/**
 * A capable compression model: summarises every message the pass lists with a short note, as the JSON the pass
 * asks for; when the request lists nothing it says so in text (the pass then gives way to the deterministic
 * fallback and eviction).
 */
export const compressingModel: ReplyFn = (request) => {
  const last = lastMessage(request);
  const ids = [...last.content.matchAll(/^#(\d+) (?:tool result|user|assistant)/gm)].map((m) => Number(m[1]));
  if (last.role !== 'user' || ids.length === 0) return { text: 'Nothing more to summarise.' };
  return { text: JSON.stringify({ summaries: ids.map((id) => ({ id, summary: 'Read earlier; already handled.' })) }) };
};

/** The proxy count of what a scripted reply generates: its text, thinking and tool calls' names and arguments. */
function replyProxyTokens(reply: ScriptedReply): number {
  const calls = (reply.toolCalls ?? []).map((c) => JSON.stringify(c)).join('');
  const text = (reply.text ?? '') + (reply.thinking ?? '') + calls;
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
