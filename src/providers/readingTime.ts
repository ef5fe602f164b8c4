// How long a server should take to read a prompt before its first byte. On slow hardware reading is the long part
// (12,000 tokens at 40 tokens/s is five minutes), so a fixed first-byte deadline either gives up on a read that was
// going fine or waits forever for a server that died. The deadline is the expected reading time (the tokens the
// server must read, divided by the prompt speed it showed on earlier replies or the setup check) plus the
// configured slack, which also covers a cold model load.
import type { ChatMessage, ToolDefinition } from '../core/messages';
import type { PromptUsage, ReadingProgress, ServerTimings, StreamDelta } from '../core/provider';
import { estimateMessagesTokens, estimateToolDefinitionTokens } from '../core/tokens';
import { formatCount } from '../shared/format';

/** Reads shorter than this (or faster than MIN_MS) say little about the speed: timer noise dominates. */
const MIN_TOKENS = 64;
const MIN_MS = 20;
/** Reading slows as the context grows (attention over more tokens); the deadline allows for it. */
const SAFETY = 1.5;
/** Each new measurement moves the speed halfway: one odd reply does not swing the deadline. */
const WEIGHT = 0.5;

/** Prompt reading speed per model, learned from replies that say how long reading took. */
export class PromptSpeed {
  private readonly perModel = new Map<string, number>();

  /** `measured`: tokens/s from the setup check, used until replies teach better. */
  constructor(private readonly measured?: number) {}

  /** Tokens per second for this model, when known. */
  of(model: string): number | undefined {
    return this.perModel.get(model) ?? this.measured;
  }

  /** Tells the speed directly (the setup check measured it). */
  set(model: string, tokensPerSecond: number): void {
    if (Number.isFinite(tokensPerSecond) && tokensPerSecond > 0) this.perModel.set(model, tokensPerSecond);
  }

  /** Learns from a reply's counts and the server's own reading time (Ollama `prompt_eval_duration`, llama.cpp `prompt_ms`). */
  learn(model: string, usage: PromptUsage & { timings?: ServerTimings }): void {
    const promptMs = usage.timings?.promptMs;
    const read = usage.promptTokens - (usage.cachedTokens ?? 0);
    if (promptMs === undefined || promptMs < MIN_MS || read < MIN_TOKENS) return;
    const rate = (read * 1000) / promptMs;
    const before = this.perModel.get(model);
    this.perModel.set(model, before === undefined ? rate : before * (1 - WEIGHT) + rate * WEIGHT);
  }
}

/** The reading a request needs, estimated before it is sent. */
export interface ReadingPlan {
  /** Tokens the server must read (the whole prompt minus the prefix it likely kept). */
  tokens: number;
  tokensPerSecond: number;
  /** Expected reading time, with the safety margin. */
  expectedMs: number;
}

/**
 * Plans the reading of a request: its estimated size times the share not shared with the previous request (the
 * server keeps that prefix), at the known speed. Undefined when no speed is known yet: the slack alone applies.
 */
export function planReading(
  speed: number | undefined,
  messages: readonly ChatMessage[],
  tools: readonly ToolDefinition[],
  reusedShare: number,
): ReadingPlan | undefined {
  if (speed === undefined) return undefined;
  const total = estimateMessagesTokens(messages) + estimateToolDefinitionTokens(tools);
  const tokens = Math.max(1, Math.ceil(total * (1 - Math.min(1, Math.max(0, reusedShare)))));
  return { tokens, tokensPerSecond: speed, expectedMs: Math.ceil(((tokens * 1000) / speed) * SAFETY) };
}

/** The first-byte deadline: the expected reading time plus the configured slack. */
export function readingDeadlineMs(slackMs: number, plan: ReadingPlan | undefined): number {
  return slackMs + (plan?.expectedMs ?? 0);
}

/** "Reading the prompt: 6,200 / 12,000 tokens", "Reading the prompt: about 6,200 / 12,000 tokens (estimated)". */
export function readingMessage(p: ReadingProgress): string {
  const counts = `${formatCount(p.processed)} / ${formatCount(p.total)} tokens`;
  if (p.estimated) return `Reading the prompt: about ${counts} (estimated)`;
  return `Reading the prompt: ${counts}${p.cached ? ` (${formatCount(p.cached)} reused)` : ''}`;
}

/** llama.cpp's streamed `prompt_progress` (`return_progress: true`): all counts include the cached prefix. */
export function progressFromLlamaCpp(raw: unknown): ReadingProgress | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const { total, cache, processed } = raw as Record<string, unknown>;
  if (typeof total !== 'number' || typeof processed !== 'number' || !(total > 0)) return undefined;
  const cached = typeof cache === 'number' && cache > 0 ? Math.min(cache, total) : 0;
  return {
    processed: Math.max(0, Math.min(processed, total) - cached),
    total: total - cached,
    ...(cached > 0 && { cached }),
  };
}

/** Speeds per server, shared by the providers of one process: the setup check's provider and the chat's are not the same object. */
const speeds = new Map<string, PromptSpeed>();
const MAX_SERVERS = 16;

export function promptSpeedFor(serverUrl: string): PromptSpeed {
  let speed = speeds.get(serverUrl);
  if (!speed) {
    speed = new PromptSpeed();
    speeds.set(serverUrl, speed);
    if (speeds.size > MAX_SERVERS) speeds.delete(speeds.keys().next().value as string);
  }
  return speed;
}

/**
 * Passes a reply through, learning the prompt speed from its usage: the server's own reading time, or, where it
 * reports none (LM Studio, vLLM), the wait for its first byte (`firstByteMs()`), which also holds the first token
 * and any model load, so the speed comes out low and the deadline long rather than short.
 */
export async function* learningSpeed(
  stream: AsyncIterable<StreamDelta>,
  speed: PromptSpeed,
  model: string,
  firstByteMs: () => number | undefined = () => undefined,
): AsyncGenerator<StreamDelta> {
  for await (const delta of stream) {
    if (delta.type === 'usage') {
      const waited = delta.timings?.promptMs === undefined ? firstByteMs() : undefined;
      speed.learn(model, waited === undefined ? delta : { ...delta, timings: { ...delta.timings, promptMs: waited } });
    }
    yield delta;
  }
}
