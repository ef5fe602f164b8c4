// The script format shared by the fake OpenAI-compatible and Ollama servers: one ScriptedReply per
// chat request, in order. See index.ts for how to use it.

export type Fault =
  /** Answer with an HTTP error (status `status`, default 500) and the server's error JSON. */
  | 'http500'
  /** Stream the scripted pieces, then an in-stream error event, then close (no finish, no [DONE]). */
  | 'midstream_error'
  /** HTTP 200 with stream headers and no events at all. */
  | 'empty'
  /** Stream the scripted pieces, then close cleanly without the finish chunk / `done: true`. */
  | 'cut'
  /** Stream the scripted pieces, then keep the connection open until the client goes away. */
  | 'hang'
  /** Stream the scripted pieces, then destroy the socket (TCP reset). */
  | 'reset'
  /** A proxy's HTML error page (status `status`, default 502; `errorMessage` in the page). */
  | 'html_error'
  /** HTTP 200 with a JSON error body instead of a stream (`errorMessage`). */
  | 'json_error_200'
  /** HTTP 200 `text/plain` with `errorMessage` as the body. */
  | 'wrong_content_type'
  /** A whole non-streamed completion (JSON) although the request asked for a stream. */
  | 'not_streamed';

export interface ScriptedToolCall {
  name: string;
  /** A string is sent as-is (it may be invalid JSON); an object is JSON-encoded (OpenAI) or sent as an object (Ollama). */
  arguments: string | Record<string, unknown>;
  id?: string;
}

export interface ScriptedReply {
  text?: string;
  thinking?: string;
  toolCalls?: ScriptedToolCall[];
  /** Defaults: prompt ≈ request size / 4, completion ≈ generated characters / 4. */
  usage?: { prompt: number; completion: number };
  /** Default: 'tool_calls' when there are tool calls (OpenAI), otherwise 'stop'. */
  finishReason?: string;
  /** Wait before the response headers (a cold model load). */
  delayMs?: number;
  /** Characters per streamed piece (text, thinking, tool arguments); default 4. */
  chunkSize?: number;
  /** Wait between streamed pieces; default 0. */
  chunkDelayMs?: number;
  fault?: Fault;
  /** Status for `fault: 'http500'` (e.g. 400 for "context exceeded"); default 500. */
  status?: number;
  /** `Retry-After` header value for `http500` (e.g. 429 or 503). */
  retryAfter?: string;
  /** Error text for `http500` / `midstream_error` and the bad replies. */
  errorMessage?: string;
  /** Stream thinking as `<think>…</think>` at the start of the content instead of a separate field. */
  thinkTags?: boolean;
  /** OpenAI only: the delta field carrying thinking; default 'reasoning_content' (llama.cpp), LM Studio uses 'reasoning'. */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** OpenAI only: send each call's whole `arguments` in its first delta (some servers do). */
  wholeArguments?: boolean;
  /** Ollama only: send object arguments as a JSON string (some proxies do). */
  stringArguments?: boolean;
}

/** A parsed chat request body as the server received it. */
export interface ChatBody {
  model?: string;
  messages?: Array<Record<string, unknown>>;
  stream?: boolean;
  [key: string]: unknown;
}

export type ScriptStep = ScriptedReply | ((request: ChatBody) => ScriptedReply);

/**
 * Either a list (request n gets step n) or one function deciding every reply; the function returns
 * undefined when the script has run out.
 */
export type Script = ScriptStep[] | ((request: ChatBody, index: number) => ScriptedReply | undefined);

export type NextReply = { reply: ScriptedReply } | { outOfScript: string };

export class ScriptPlayer {
  private index = 0;

  constructor(
    private readonly script: Script,
    private readonly name: string,
  ) {}

  next(request: ChatBody): NextReply {
    const index = this.index++;
    if (typeof this.script === 'function') {
      const reply = this.script(request, index);
      return reply ? { reply } : { outOfScript: this.outOfScriptMessage(index) };
    }
    const step = this.script[index];
    if (!step) return { outOfScript: this.outOfScriptMessage(index) };
    return { reply: typeof step === 'function' ? step(request) : step };
  }

  private outOfScriptMessage(index: number): string {
    const planned = typeof this.script === 'function' ? 'its reply function returned nothing' : `it has ${this.script.length} replies`;
    return `fake LLM server script "${this.name}" has no reply for chat request #${index + 1} (${planned})`;
  }
}

/** Splits by code points so a piece never cuts a surrogate pair. */
export function splitPieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const step = Math.max(1, size);
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += step) pieces.push(chars.slice(i, i + step).join(''));
  return pieces;
}

export const DEFAULT_CHUNK_SIZE = 4;

export function argumentsText(args: ScriptedToolCall['arguments']): string {
  return typeof args === 'string' ? args : JSON.stringify(args);
}

/** What the model generates, in tokens (≈ 4 characters each): text, thinking and the tool calls as it writes them. */
export function roughCompletionTokens(script: ScriptedReply): number {
  const calls = (script.toolCalls ?? []).map((c) => c.name + argumentsText(c.arguments)).join('');
  return Math.max(1, Math.ceil(((script.text ?? '').length + (script.thinking ?? '').length + calls.length) / 4));
}

export function roughPromptTokens(request: ChatBody): number {
  // Real servers count the tool definitions the chat template renders into the prompt, too.
  // An image costs its vision encoder's tokens (a fixed 256 here, like llava), not its base64 length.
  let images = 0;
  const text = JSON.stringify(request.messages ?? [], (key, value: unknown) => {
    if (key === 'images' && Array.isArray(value)) {
      images += value.length;
      return [];
    }
    if (key === 'url' && typeof value === 'string' && value.startsWith('data:image/')) {
      images++;
      return '';
    }
    return value;
  });
  return Math.max(1, Math.ceil((text.length + JSON.stringify(request.tools ?? []).length) / 4) + images * 256);
}
