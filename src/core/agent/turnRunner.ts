// A turn: rounds of (model call → tool calls) until the model answers without tools, a loop-breaking
// tool ends it, the user cancels, or the round limit is hit. The history accumulates across rounds so
// the model always sees its own earlier calls and their results.
import { imageLabel, type ImagePart } from '../images/imagePart';
import { randomUUID } from 'node:crypto';
import type { ChatMessage, MessageAttachment, ToolCall, ToolDefinition } from '../messages';
import type { ChatProvider } from '../provider';
import { ProviderError } from '../provider';
import { ContextBudgetError } from '../window/budgetError';
import type { ApprovalGate } from '../approval/gate';
import { TurnDenials } from '../approval/turnDenials';
import type { ToolRegistry } from '../tools/registry';
import type { RiskLevel, ToolContext } from '../tools/tool';
import type { EventBus, TurnEndReason } from './events';
import { streamRound, type RoundReply } from './round';
import { executeToolCall } from './toolExecutor';
import { chatRequest } from '../prompt/requestLayout';
import { errorMessage } from '../../shared/format';

export interface TextReplyState {
  round: number;
  reply: RoundReply;
  history: readonly ChatMessage[];
  toolsOffered: boolean;
  /** Tools the model called earlier in this turn. */
  usedInTurn?: ReadonlySet<string>;
}

export type TextReplyDecision =
  /**
   * End the turn. `notice` is emitted first; `result` replaces the reply text as the turn's result (e.g. a static
   * answer after an empty reply); `error` ends it as failed instead of completed (a reply that was never whole).
   */
  | { action: 'end'; notice?: string; result?: string; error?: string }
  /**
   * Keep going: the assistant text stays in history, then `nudge` is sent as a user message.
   * `withoutTools`: the next model call offers no tools (a final "summarise what you did" request).
   */
  | { action: 'continue'; nudge: string; notice: string; withoutTools?: boolean };

export interface ToolCallsState {
  round: number;
  calls: readonly ToolCall[];
  history: readonly ChatMessage[];
}

export type ToolCallsDecision =
  /** Run the calls. `notice` is emitted; `nudge` is sent as a user message after the results (e.g. "you keep repeating this call"). */
  | { action: 'run'; notice?: string; nudge?: string }
  /** Do not run them and end the turn with an error (e.g. the model is stuck repeating one call). */
  | { action: 'stop'; notice: string; message: string };

export interface CallModelOptions {
  /** The tools to offer on this call: the turn's tools, or none for a final summary request. */
  tools: readonly ToolDefinition[];
}

export interface ToolSelectionState {
  round: number;
  /** The user's request that started this turn. */
  userText: string;
  history: readonly ChatMessage[];
  /** Every tool this turn may use. */
  tools: readonly ToolDefinition[];
  /** Tools the model called earlier in this turn (they stay offered). */
  usedInTurn: ReadonlySet<string>;
}

export interface TurnHooks {
  /** Before each model call that offers tools: which of them to offer (the pre-filter). Defaults to all. */
  selectTools?(state: ToolSelectionState, signal: AbortSignal): Promise<readonly ToolDefinition[]>;
  /**
   * Before each model call: the messages to send (compression / eviction live here). `tools` are the
   * definitions this call will carry, so the budget counts exactly what is sent.
   */
  prepareMessages?(messages: ChatMessage[], signal: AbortSignal, tools: readonly ToolDefinition[]): Promise<ChatMessage[]>;
  /** After a reply without tool calls: end the turn, or nudge and continue. */
  onTextReply?(state: TextReplyState): TextReplyDecision;
  /** After a reply with tool calls, before running them: run (optionally with a nudge after the results) or stop. */
  onToolCalls?(state: ToolCallsState): ToolCallsDecision;
  /** Wraps the model call (retries, fallback models, text-based tool calls). Defaults to one streamed call. */
  callModel?(round: number, messages: ChatMessage[], signal: AbortSignal, options: CallModelOptions): Promise<RoundReply>;
}

export interface TurnConfig {
  provider: ChatProvider;
  model: string;
  registry: ToolRegistry;
  gate: ApprovalGate;
  bus: EventBus;
  toolContext: Omit<ToolContext, 'signal' | 'onProgress'>;
  /** Rebuilt before every round so hot context is current. */
  buildSystemPrompt: () => string;
  maxRounds?: number;
  allowedRisks?: readonly RiskLevel[];
  maxToolResultChars?: number;
  think?: boolean;
  contextSize?: number;
  temperature?: number;
  now?: () => number;
  /** Plan or Ask (absent: Agent), told with turn_start so the panel can offer Act on a plan. */
  mode?: 'plan' | 'ask';
  /** A prompt file's `tools`: the only tools offered (loop-breaking ones stay). */
  onlyTools?: readonly string[];
  /** Plan and Ask mode: refuses the calls the mode does not allow, with what the model reads (see core/modes). */
  refuseCall?: (name: string) => string | undefined;
  /** What the user attached to this turn's request (code, MCP resources): data on the user message. */
  attachments?: readonly MessageAttachment[];
  /** Images the user attached to this turn's request (the host checked that the model sees). */
  images?: readonly ImagePart[];
  /** Persist a message the moment it exists. Awaited, so a crash loses at most the message in flight. */
  onMessage?: (message: ChatMessage) => void | Promise<void>;
  hooks?: TurnHooks;
}

export interface TurnOutcome {
  reason: TurnEndReason;
  /** The final answer, task_completion result or question, when there is one. */
  result?: string;
  error?: string;
  rounds: number;
}

export const DEFAULT_MAX_ROUNDS = 20;
export const DEFAULT_MAX_TOOL_RESULT_CHARS = 6000;

export async function runTurn(
  history: ChatMessage[],
  userText: string,
  config: TurnConfig,
  signal: AbortSignal,
): Promise<TurnOutcome> {
  const { bus } = config;
  const now = config.now ?? Date.now;
  const maxRounds = config.maxRounds ?? DEFAULT_MAX_ROUNDS;
  const append = async (message: ChatMessage) => {
    history.push(message);
    await config.onMessage?.(message);
  };
  const end = (outcome: TurnOutcome): TurnOutcome => {
    bus.emit({ type: 'turn_end', reason: outcome.reason, ...(outcome.result !== undefined && { result: outcome.result }) });
    return outcome;
  };

  const attachments = config.attachments?.length ? [...config.attachments] : undefined;
  const images = config.images?.length ? [...config.images] : undefined;
  bus.emit({
    type: 'turn_start',
    turnId: randomUUID(),
    message: userText,
    ...(attachments && { attachments: attachments.map((a) => a.label) }),
    ...(config.mode && { mode: config.mode }),
    ...(images && { images: images.map(imageLabel) }),
    // The chat's thumbnails (by index of `images`), when the panel made them.
    ...(images?.some((i) => i.thumbnail) && { thumbnails: images.map((i) => i.thumbnail ?? null) }),
  });
  await append({ role: 'user', content: userText, ...(attachments && { attachments }), ...(images && { images }) });

  const only = config.onlyTools;
  const all = config.registry.definitions(config.allowedRisks);
  const tools = only ? all.filter((d) => only.includes(d.name) || config.registry.get(d.name)?.loopBreaking) : all;
  const execEnv = {
    registry: config.registry,
    gate: config.gate,
    bus,
    context: config.toolContext,
    maxResultChars: config.maxToolResultChars ?? DEFAULT_MAX_TOOL_RESULT_CHARS,
    now,
    denials: new TurnDenials(), // a Deny holds for the rest of this turn
    ...(config.allowedRisks && { allowedRisks: config.allowedRisks }),
    ...(config.refuseCall && { refuse: config.refuseCall }),
  };

  let round = 0;
  let nextCallWithoutTools = false;
  const usedInTurn = new Set<string>();
  // What the user saw of the reply being streamed, so a cancelled reply stays in the history (and on disk).
  let partial = { text: '', thinking: '', recorded: false };
  const offPartial = bus.on((e) => {
    if (e.type === 'round_start') partial = { text: '', thinking: '', recorded: false };
    else if (e.type === 'text') partial.text += e.text;
    else if (e.type === 'thinking') partial.thinking += e.text;
  });
  const cancelled = async (rounds: number): Promise<TurnOutcome> => {
    if (!partial.recorded && (partial.text.trim() || partial.thinking.trim())) {
      partial.recorded = true;
      const message: ChatMessage = { role: 'assistant', content: `${partial.text}${partial.text ? '\n\n' : ''}${CANCELLED_REPLY_MARK}` };
      if (partial.thinking) message.thinking = partial.thinking;
      await append(message).catch(() => undefined);
    }
    return end({ reason: 'cancelled', rounds });
  };
  /** Every tool call in history needs a result, or the next request is malformed on OpenAI-compatible servers. */
  const closeCalls = async (calls: readonly ToolCall[], text: string) => {
    for (const call of calls) await append({ role: 'tool', content: text, toolCallId: call.id, toolName: call.name });
  };
  try {
    for (; round < maxRounds; round++) {
      if (signal.aborted) return await cancelled(round);
      bus.emit({ type: 'round_start', round });

      let callTools: readonly ToolDefinition[] = nextCallWithoutTools ? [] : tools;
      nextCallWithoutTools = false;
      if (callTools.length > 0 && config.hooks?.selectTools) {
        callTools = await config.hooks.selectTools({ round, userText, history, tools, usedInTurn }, signal);
      }
      // Laid out by the cache rule (src/core/prompt/requestLayout.ts): the fixed system prompt, then the history.
      let messages = chatRequest(config.buildSystemPrompt(), history);
      if (config.hooks?.prepareMessages) messages = await config.hooks.prepareMessages(messages, signal, callTools);

      const reply: RoundReply = config.hooks?.callModel
        ? await config.hooks.callModel(round, messages, signal, { tools: callTools })
        : await streamRound(
            {
              provider: config.provider,
              model: config.model,
              messages,
              tools: callTools,
              signal,
              ...(config.think !== undefined && { think: config.think }),
              ...(config.contextSize !== undefined && { contextSize: config.contextSize }),
              ...(config.temperature !== undefined && { temperature: config.temperature }),
            },
            bus,
          );
      if (signal.aborted) return await cancelled(round + 1);

      const assistant: ChatMessage = { role: 'assistant', content: reply.text };
      if (reply.thinking) assistant.thinking = reply.thinking;
      if (reply.toolCalls.length) assistant.toolCalls = reply.toolCalls;
      partial.recorded = true;
      await append(assistant);

      if (reply.toolCalls.length === 0) {
        const decision: TextReplyDecision = config.hooks?.onTextReply?.({ round, reply, history, toolsOffered: callTools.length > 0, usedInTurn }) ?? { action: 'end' };
        if (decision.action === 'continue') {
          bus.emit({ type: 'notice', message: decision.notice });
          await append({ role: 'user', content: decision.nudge });
          nextCallWithoutTools = !!decision.withoutTools;
          continue;
        }
        if (decision.notice) bus.emit({ type: 'notice', message: decision.notice });
        if (decision.error) {
          bus.emit({ type: 'error', message: decision.error });
          return end({ reason: 'error', error: decision.error, rounds: round + 1 });
        }
        return end({ reason: 'completed', result: decision.result ?? reply.text, rounds: round + 1 });
      }

      const callsDecision: ToolCallsDecision = config.hooks?.onToolCalls?.({ round, calls: reply.toolCalls, history }) ?? { action: 'run' };
      if (callsDecision.action === 'stop') {
        await closeCalls(reply.toolCalls, 'Not run: the turn was stopped.');
        bus.emit({ type: 'notice', message: callsDecision.notice });
        bus.emit({ type: 'error', message: callsDecision.message });
        return end({ reason: 'error', error: callsDecision.message, rounds: round + 1 });
      }
      if (callsDecision.notice) bus.emit({ type: 'notice', message: callsDecision.notice });

      for (const call of reply.toolCalls) usedInTurn.add(call.name);
      for (const [i, call] of reply.toolCalls.entries()) {
        const execution = await executeToolCall(call, execEnv, signal);
        await append({ role: 'tool', content: execution.content, toolCallId: call.id, toolName: call.name, ...(execution.images && { images: execution.images }) });
        const rest = reply.toolCalls.slice(i + 1);
        if (signal.aborted) {
          await closeCalls(rest, 'Not run: the turn was cancelled.');
          return await cancelled(round + 1);
        }
        if (execution.loopBreaking) {
          await closeCalls(rest, `Not run: ${call.name} ended the turn first.`);
          const reason: TurnEndReason = call.name === 'ask_question' ? 'ask_question' : 'task_completion';
          const result = loopBreakingText(execution.args) ?? execution.content;
          return end({ reason, result, rounds: round + 1 });
        }
      }
      if (callsDecision.nudge) await append({ role: 'user', content: callsDecision.nudge });
    }
    const message = `Stopped after ${maxRounds} rounds without finishing. The model kept calling tools; raise the round limit (maxRounds) or give a narrower task.`;
    bus.emit({ type: 'error', message });
    return end({ reason: 'max_rounds', error: message, rounds: round });
  } catch (err) {
    if (signal.aborted || (err instanceof ProviderError && err.kind === 'aborted')) {
      return await cancelled(round + 1);
    }
    const message = err instanceof ProviderError || err instanceof ContextBudgetError ? err.message : `Unexpected error: ${errorMessage(err)}`;
    bus.emit({ type: 'error', message });
    return end({ reason: 'error', error: message, rounds: round + 1 });
  } finally {
    offPartial();
  }
}

/** Ends a reply that was cut off by Stop (or a window reload), so the model and the user see it was incomplete. */
export const CANCELLED_REPLY_MARK = '[Reply cut off: the turn was cancelled.]';

function loopBreakingText(args: unknown): string | undefined {
  if (args && typeof args === 'object') {
    const a = args as { result?: unknown; question?: unknown };
    if (typeof a.result === 'string') return a.result;
    if (typeof a.question === 'string') return a.question;
  }
  return undefined;
}
