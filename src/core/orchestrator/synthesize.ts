// The planner's second request: the final answer from the user's request, the plan and the step results (digested
// to fit the planner's window). It is also the check of the plan's done_when against what the tools returned: a
// reply that says "NOT DONE: …", calls a tool, or writes tool markup (`<tool>{…}</tool>`, a JSON call) means
// work is left. Such a reply is never shown: text streams out only up to anything that could start a call or the
// marker, and the rest is released when the reply turned out to be a plain answer.
import type { ChatMessage } from '../messages';
import type { ChatProvider } from '../provider';
import type { EventBus } from '../agent/events';
import type { ToolRegistry } from '../tools/registry';
import type { RiskLevel } from '../tools/tool';
import { estimateTokens } from '../tokens';
import { streamProtocolReply } from '../toolProtocol/replyStreamer';
import { ToolIndex } from '../toolProtocol/toolIndex';
import { clip, digestSteps } from './stepShortening';
import { standaloneRequest } from '../prompt/requestLayout';
import type { Plan, StepRecord } from './planRequest';

/** Window assumed when the planner's is not known: the smallest a local server commonly runs. */
const DEFAULT_WINDOW = 4096;
/** Share of the window the step results may take; the rest is the prompt, the answer and slack. */
const RESULTS_SHARE = 0.5;
const CHARS_PER_TOKEN = 4;
export const NOT_DONE_MARK = 'NOT DONE:';

export interface SynthesisInput {
  provider: ChatProvider;
  model: string;
  request: string;
  plan: Plan;
  records: readonly StepRecord[];
  signal: AbortSignal;
  /** Tools a call in the reply may name (parsed only, never run: the planner has no tools). */
  registry: ToolRegistry;
  allowedRisks?: readonly RiskLevel[];
  contextSize?: number;
  think?: boolean;
}

export interface Synthesis {
  /** The answer as shown (empty when work is left). */
  text: string;
  thinking: string;
  /** What the reply shows is left: its NOT DONE line, or the calls it tried to make. */
  workLeft?: string;
}

export function synthesisMessages(input: Pick<SynthesisInput, 'request' | 'plan' | 'records' | 'contextSize'>): ChatMessage[] {
  const window = input.contextSize ?? DEFAULT_WINDOW;
  const system =
    'You are the agent answering the user. The work below was already done by tools, step by step. First check the ' +
    `results against "Done when": if they show that the request is not done yet, reply with only "${NOT_DONE_MARK} " ` +
    'and what is left, in one line. Otherwise answer the request from these results: say plainly what was done and ' +
    'what failed or was skipped. Be brief. Do not call tools.';
  const head = `Request: ${input.request}\n\nDone when: ${input.plan.doneWhen || '(not stated)'}\n\nSteps and results:\n`;
  const budgetChars = Math.max(800, Math.floor(window * RESULTS_SHARE * CHARS_PER_TOKEN) - (estimateTokens(system + head) * CHARS_PER_TOKEN));
  return standaloneRequest(system, head + digestSteps(input.records, budgetChars));
}

export async function synthesize(input: SynthesisInput, bus: EventBus): Promise<Synthesis> {
  const held = new HeldText((text) => bus.emit({ type: 'text', text }));
  const known = new ToolIndex(input.registry.definitions(input.allowedRisks));
  const reply = await streamProtocolReply(
    {
      provider: input.provider,
      model: input.model,
      messages: synthesisMessages(input),
      signal: input.signal,
      ...(input.contextSize !== undefined && { contextSize: input.contextSize }),
      ...(input.think !== undefined && { think: input.think }),
    },
    { mode: 'native', index: new ToolIndex([]), known, validate: (call) => input.registry.parse(call, input.allowedRisks).ok },
    { text: (t) => held.push(t), thinking: (t) => bus.emit({ type: 'thinking', text: t }), status: (m) => bus.emit({ type: 'status', message: m }) },
  );
  if (reply.usage) bus.emit({ type: 'usage', ...reply.usage });
  const text = reply.text.trim();
  // A reply cut at the output limit had its calls dropped (src/core/toolProtocol/replyStreamer.ts): they still mean work.
  const cut = reply.cut;
  const calls = [
    ...reply.toolCalls.map((c) => c.name),
    ...(cut?.calls ?? []),
    ...(reply.protocolErrors.length || (cut?.partialCall && !cut.calls.length) || looksLikeCall(text) ? ['tool markup'] : []),
  ];
  const marked = startsWithMark(text);
  if (calls.length || marked || !text || cut) {
    const workLeft = marked
      ? clip(text.replace(/^[\s*_#>`-]+/, '').replace(/^NOT DONE\W*/i, '').trim() || 'not stated', 300)
      : calls.length
        ? `it tried to call ${[...new Set(calls)].join(', ')}`
        : cut
          ? 'the answer was cut off at the output limit'
          : 'the answer was empty';
    return { text: '', thinking: reply.thinking, workLeft };
  }
  held.release();
  return { text, thinking: reply.thinking };
}

/** A call written as JSON that names no runnable tool or has broken arguments (recovery passed it by). */
function looksLikeCall(text: string): boolean {
  return /\{\s*"(?:name|tool_name|tool|function)"\s*:/.test(text) && /"(?:arguments|parameters|args|input)"\s*:/.test(text);
}

function startsWithMark(text: string): boolean {
  return text.replace(/^[\s*_#>`-]+/, '').toUpperCase().startsWith(NOT_DONE_MARK.slice(0, -1));
}

/**
 * Streams text until something could start a tool call written as text (`{`, `[`, a code fence) or the reply
 * may be the NOT DONE mark; from there on it holds the text back until the caller knows it is an answer.
 */
class HeldText {
  private seen = '';
  private emitted = 0;
  private holding = false;

  constructor(private readonly emit: (text: string) => void) {}

  push(text: string): void {
    this.seen += text;
    if (this.holding) return;
    const start = this.seen.replace(/^[\s*_#>`-]+/, '').toUpperCase();
    if (start.length < NOT_DONE_MARK.length && NOT_DONE_MARK.startsWith(start)) return; // may still become the mark
    if (start.startsWith(NOT_DONE_MARK.slice(0, -1))) {
      this.holding = true;
      return;
    }
    const suspicious = this.seen.slice(this.emitted).search(/[{[]|```/);
    const upTo = suspicious < 0 ? this.seen.length : this.emitted + suspicious;
    if (upTo > this.emitted) this.emit(this.seen.slice(this.emitted, upTo));
    this.emitted = upTo;
    if (suspicious >= 0) this.holding = true;
  }

  /** The reply was a plain answer: the held rest goes out. */
  release(): void {
    if (this.emitted < this.seen.length) this.emit(this.seen.slice(this.emitted));
    this.emitted = this.seen.length;
  }
}
