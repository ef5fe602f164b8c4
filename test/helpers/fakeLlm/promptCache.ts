// What a local model server does with a prompt, for the fake servers: llama.cpp, Ollama and LM Studio keep the
// previous request's tokens (the KV cache of a slot) and process only what follows the longest common prefix of
// the new request as the chat template renders it. Processing costs time per token, so a request that changes
// its start makes the server read the whole conversation again. This model renders each request the way a
// ChatML template does (Qwen and most local coding models: the tool list inside the system block, first),
// keeps one prefix per slot, and says how many prompt tokens were reused and how long reading the rest took.
import type { ChatBody } from './script';

export interface PromptCacheOptions {
  /** Keep the previous request's tokens (default true). false: every request is read in full. */
  enabled?: boolean;
  /** Prompt processing speed: the server waits processed/rate seconds before its first byte. Absent: no wait. */
  promptTokensPerSecond?: number;
  /** Generation speed: the server waits completion/rate seconds before streaming the reply. Absent: no wait. */
  generatedTokensPerSecond?: number;
  /** Report the reused count in the server's own fields (default true; LM Studio reports none). */
  reportCached?: boolean;
  /**
   * KV cache slots (llama.cpp `-np`): a request picks one with `id_slot` (wrapping around, as llama-server does), else
   * the idle slot with the best prefix match, else the least recently used idle one. A request waits while its slot
   * (or, unpinned, every slot) is busy, as llama-server defers it (see claim()).
   */
  slots?: number;
  /** llama-server's `--slot-prompt-similarity`: 0.1 by default, 0.5 in builds before late 2025. */
  slotPromptSimilarity?: number;
}

export interface PromptProcessing {
  /** All prompt tokens of the request (what the server reports as its prompt count). */
  promptTokens: number;
  /** Tokens reused from the slot's cache. */
  cachedTokens: number;
  /** Tokens read (processed) for this request. */
  processedTokens: number;
  /** How much longer this prompt is than the slot's previous one, in tokens: the least a server must read. */
  newTokens: number;
  /** Time spent reading them, in ms. */
  promptMs: number;
  slot: number;
}

export interface PromptCacheStats {
  requests: number;
  promptTokens: number;
  cachedTokens: number;
  processedTokens: number;
  newTokens: number;
  /** Each request in order. */
  log: PromptProcessing[];
}

/** llama.cpp picks the slot with the most similar prompt only above this share of common prefix (its default). */
const SLOT_SIMILARITY = 0.1;

export class PromptCacheModel {
  readonly stats: PromptCacheStats = { requests: 0, promptTokens: 0, cachedTokens: 0, processedTokens: 0, newTokens: 0, log: [] };
  private readonly slots: Array<{ prompt: string; usedAt: number; busy: boolean }>;
  private clock = 0;
  private readonly freed: Array<() => void> = [];

  constructor(readonly options: PromptCacheOptions = {}) {
    this.slots = Array.from({ length: Math.max(1, options.slots ?? 1) }, () => ({ prompt: '', usedAt: 0, busy: false }));
  }

  get reportsCached(): boolean {
    return this.options.reportCached !== false;
  }

  /**
   * Takes a slot for a request, waiting as llama-server does: a task pinned to a busy slot, or an unpinned one while
   * every slot is busy, is deferred until a slot frees. Give it back with release() when the reply ends.
   */
  async claim(body: ChatBody): Promise<number> {
    const rendered = renderChatTemplate(body);
    for (;;) {
      const slot = this.pickSlot(body, rendered);
      if (slot !== undefined && !this.slots[slot]!.busy) {
        this.slots[slot]!.busy = true;
        return slot;
      }
      await new Promise<void>((resolve) => this.freed.push(resolve));
    }
  }

  release(slot: number): void {
    this.slots[slot]!.busy = false;
    for (const wake of this.freed.splice(0)) wake();
  }

  /** The slots as llama-server's `GET /slots` lists them (the fields a client reads). */
  slotList(nCtx: number): Array<Record<string, unknown>> {
    return this.slots.map((s, id) => ({ id, id_task: s.usedAt ? s.usedAt - 1 : -1, n_ctx: nCtx, speculative: false, is_processing: s.busy }));
  }

  /**
   * Runs one request through the cache: which slot (`slot`: the one claim() gave it), how much was reused, how long
   * the rest takes to read.
   */
  process(body: ChatBody, promptTokens: number, claimed?: number): PromptProcessing {
    const rendered = renderChatTemplate(body);
    const slot = claimed ?? this.pickSlot(body, rendered) ?? 0;
    const common = this.options.enabled === false ? 0 : commonPrefixLength(this.slots[slot]!.prompt, rendered);
    // Tokens scale with characters; a prompt identical to the cached one still reads its last token.
    const cachedTokens = Math.min(Math.max(0, promptTokens - 1), Math.floor((promptTokens * common) / Math.max(1, rendered.length)));
    const processedTokens = promptTokens - cachedTokens;
    const grown = Math.max(0, rendered.length - this.slots[slot]!.prompt.length);
    const newTokens = Math.max(1, Math.ceil((promptTokens * grown) / Math.max(1, rendered.length)));
    const rate = this.options.promptTokensPerSecond;
    const result: PromptProcessing = { promptTokens, cachedTokens, processedTokens, newTokens, promptMs: rate ? (processedTokens / rate) * 1000 : 0, slot };
    this.slots[slot] = { prompt: rendered, usedAt: ++this.clock, busy: this.slots[slot]!.busy };
    this.stats.requests++;
    this.stats.promptTokens += promptTokens;
    this.stats.cachedTokens += cachedTokens;
    this.stats.processedTokens += processedTokens;
    this.stats.newTokens += newTokens;
    this.stats.log.push(result);
    return result;
  }

  /** A request answered with an error before its prompt was read: nothing reused, nothing read. */
  refused(promptTokens: number): PromptProcessing {
    return { promptTokens, cachedTokens: 0, processedTokens: 0, newTokens: 0, promptMs: 0, slot: -1 };
  }

  /** Time to generate `tokens`, in ms. */
  generationMs(tokens: number): number {
    const rate = this.options.generatedTokensPerSecond;
    return rate ? (tokens / rate) * 1000 : 0;
  }

  /** The slot a request goes to (pinned: its own, busy or not), or undefined when it is unpinned and all are busy. */
  private pickSlot(body: ChatBody, rendered: string): number | undefined {
    const asked = body.id_slot;
    if (typeof asked === 'number' && Number.isInteger(asked) && asked >= 0) return asked % this.slots.length;
    let best = -1;
    let bestShare = 0;
    this.slots.forEach((s, i) => {
      const share = s.prompt && !s.busy ? commonPrefixLength(s.prompt, rendered) / rendered.length : 0;
      if (share > bestShare) {
        best = i;
        bestShare = share;
      }
    });
    if (best >= 0 && bestShare > (this.options.slotPromptSimilarity ?? SLOT_SIMILARITY)) return best;
    let oldest: number | undefined;
    this.slots.forEach((s, i) => {
      if (!s.busy && (oldest === undefined || s.usedAt < this.slots[oldest]!.usedAt)) oldest = i;
    });
    return oldest;
  }
}

export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * A request as a ChatML chat template renders it (Qwen 2.5/3 style): the system message with the tool list
 * after its text, then each message in order, tool calls as `<tool_call>` JSON and tool results as
 * `<tool_response>` blocks in a user turn, then the assistant prompt. Both wire formats (OpenAI string
 * arguments, Ollama object arguments) render the same way.
 */
export function renderChatTemplate(body: ChatBody): string {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const parts: string[] = [];
  const first = messages[0];
  const system = first && first.role === 'system' ? text(first.content) : '';
  if (system || tools.length) {
    let block = system;
    if (tools.length) {
      block += `${system ? '\n\n' : ''}# Tools\n\nYou may call one or more functions to assist with the user query.\n\n<tools>\n`;
      block += tools.map((t) => JSON.stringify(t)).join('\n');
      block += '\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags.';
    }
    parts.push(`<|im_start|>system\n${block}<|im_end|>\n`);
  }
  for (const [i, m] of messages.entries()) {
    if (i === 0 && m.role === 'system') continue;
    const role = String(m.role ?? '');
    if (role === 'tool') {
      parts.push(`<|im_start|>user\n<tool_response>\n${text(m.content)}\n</tool_response><|im_end|>\n`);
      continue;
    }
    let content = text(m.content);
    const calls = Array.isArray(m.tool_calls) ? (m.tool_calls as Array<Record<string, unknown>>) : [];
    for (const c of calls) {
      const fn = (c.function ?? {}) as Record<string, unknown>;
      const args = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {});
      content += `\n<tool_call>\n{"name": ${JSON.stringify(fn.name ?? '')}, "arguments": ${args}}\n</tool_call>`;
    }
    parts.push(`<|im_start|>${role}\n${content}<|im_end|>\n`);
  }
  parts.push('<|im_start|>assistant\n');
  return parts.join('');
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (p && typeof p === 'object' && 'text' in p ? String((p as { text: unknown }).text) : '')).join('');
  return '';
}
