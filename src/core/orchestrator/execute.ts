// One step of a plan on the executor model. Every step request starts with the same bytes — one fixed system
// prompt and the run's tools, in the same order — and the step's goal, inputs and hot context follow in the user
// message, so a local server's prompt cache is reused from step to step; within a step the exchange only grows.
// A step goes on while it makes progress (a successful call not made before), within the turn's round budget;
// it ends `ok` only when the executor closes it with words that do not say work is left and the evidence agrees
// (stepEvidence.ts). Tool calls go through the same executeToolCall as the normal loop, and every call and result
// is appended to the session history in valid order, so the single-model loop can continue from it.
import type { ChatMessage, ToolCall, ToolDefinition } from '../messages';
import type { RoundReply } from '../agent/round';
import type { CallModelOptions } from '../agent/turnRunner';
import type { TokenMeter } from '../window/meter';
import { executeToolCall, type ToolExecutionEnv } from '../agent/toolExecutor';
import type { Plan, PlanStep, StepRecord } from './planRequest';
import { needsTool } from './planRequest';
import { clip } from './stepShortening';
import { continueNudge, digestResults, EMPTY_NUDGE, workLeft } from './stepEvidence';
import { newThread, observeSuccess, threadMessages, touch, type StepThread } from './stepThread';
import { fitsWindow, startNewSegment } from './stepWindow';
import { chatRequest, systemMessage } from '../prompt/requestLayout';

/** Rounds in a row a step may go without progress before the attempt counts as failed. */
export const DEFAULT_STALL_ROUNDS = 4;
/** What one earlier step's result may take in a step prompt: a small model has a small window. */
const DEPENDENCY_RESULT_CHARS = 1200;
/** What a step's result keeps for later steps and the synthesis. */
const STEP_RESULT_CHARS = 2000;

/** Executor rounds the whole turn may use (every step, every attempt). */
export interface RoundBudget {
  readonly limit: number;
  used: number;
}

export interface StepEnv {
  exec: ToolExecutionEnv;
  /** The executor's model call (retries, text tool protocol), emitting text/thinking/usage events. */
  callModel(round: number, messages: ChatMessage[], signal: AbortSignal, options: CallModelOptions): Promise<RoundReply>;
  /** The tools every step of the run is offered: chosen once, so each request carries the same definitions. */
  tools: readonly ToolDefinition[];
  /** The executor's window (0: unknown): a step whose next request would not fit starts a new segment. */
  window: number;
  /** The run's token counts, cached per message and per tool list: the window check runs every round. */
  meter: TokenMeter;
  hotContext(): string;
  /** Appends to the session history (and persists). */
  append(message: ChatMessage): Promise<void>;
  /** The turn's next round number (round_start numbering across planner, executor and synthesis). */
  nextRound(): number;
  budget: RoundBudget;
  stallRounds: number;
}

export type StepAttempt =
  | { kind: 'ok'; summary: string; result: string }
  /** The step did not get done; `thread` lets a retry continue the same request instead of starting over. */
  | { kind: 'failed'; reason: string; thread: StepThread }
  /** The executor answered with text and no tool call for a step that needs one. */
  | { kind: 'no_tool'; text: string }
  /** The user denied a call: their decision, not the model's failure; not retried. */
  | { kind: 'denied'; summary: string }
  /** The turn's round budget ran out in the middle of the step. */
  | { kind: 'out_of_rounds' }
  | { kind: 'cancelled' };

export interface StepInput {
  step: PlanStep;
  index: number;
  plan: Plan;
  done: ReadonlyMap<string, StepRecord>;
  /** An earlier attempt's thread (a retry) or a resumed step's calls so far. */
  thread?: StepThread;
  /** Said to the executor first (a retry says why the last attempt failed). */
  nudge?: string;
}

export const EXECUTOR_SYSTEM_PROMPT = [
  'You carry out ONE step of a larger task with the tools offered; the step is in the user message. Call the tools',
  'the step needs with exact arguments, one action after another, until the whole step is done: when it covers',
  'several files, handle every one of them. Do not repeat a call that already succeeded. When the step is done,',
  'reply with one short sentence saying what you did. Do nothing beyond this step.',
].join('\n');

export async function executeStep(input: StepInput, env: StepEnv, signal: AbortSignal): Promise<StepAttempt> {
  const { step } = input;
  const system = systemMessage(EXECUTOR_SYSTEM_PROMPT);
  const thread = input.thread ?? newThread(stepPrompt(input, env.hotContext()));
  const fresh = thread.exchange.length === 0;
  if (input.nudge) thread.exchange.push({ role: 'user', content: input.nudge });
  let round = 0;
  let stalled = 0;
  let headed = false;
  /** Successes when the executor was last sent back to work: a second "not done" without progress fails. */
  let nudgedAt: number | undefined;
  const record = async (message: ChatMessage) => {
    thread.exchange.push(message);
    await env.append(message);
  };
  const closeCalls = async (calls: readonly ToolCall[], text: string) => {
    for (const call of calls) await record({ role: 'tool', content: text, toolCallId: call.id, toolName: call.name });
  };
  const failed = (reason: string): StepAttempt => ({ kind: 'failed', reason, thread });

  for (;;) {
    if (signal.aborted) return { kind: 'cancelled' };
    if (env.budget.used >= env.budget.limit) return { kind: 'out_of_rounds' };
    let messages = chatRequest(system, threadMessages(thread));
    if (!fitsWindow(messages, env.tools, env.window, env.meter) && startNewSegment(thread)) messages = chatRequest(system, threadMessages(thread));
    env.budget.used++;
    env.exec.bus.emit({ type: 'round_start', round: env.nextRound() });
    const reply = await env.callModel(round++, messages, signal, { tools: [...env.tools] });
    if (signal.aborted) return { kind: 'cancelled' };

    if (reply.toolCalls.length === 0) {
      const text = reply.text.trim();
      if (thread.keys.size === 0 && needsTool(step)) {
        if (round === 1 && fresh && !input.nudge) return { kind: 'no_tool', text };
        return failed(text ? `the executor stopped: ${clip(text, 200)}` : 'no tool call succeeded');
      }
      const left = text ? workLeft(step, text, thread) : nudgedAt === undefined ? 'the reply was empty' : undefined;
      if (!left) return ok(text || firstLineOf(thread.results.at(-1) ?? ''), thread, text);
      if (nudgedAt === thread.keys.size) return failed(`unfinished: ${left}`);
      nudgedAt = thread.keys.size;
      thread.exchange.push({ role: 'assistant', content: reply.text }, { role: 'user', content: text ? continueNudge(left) : EMPTY_NUDGE });
      if (++stalled >= env.stallRounds) return failed(`no progress in ${stalled} rounds: ${left}`);
      continue;
    }

    // The first call of a step says which step it serves: the history reads like a model narrating its plan.
    const assistant: ChatMessage = { role: 'assistant', content: headed || !fresh ? reply.text : stepHeading(input, reply.text), toolCalls: reply.toolCalls };
    if (reply.thinking) assistant.thinking = reply.thinking;
    headed = true;
    await record(assistant);

    let denied: string | undefined;
    let progress = false;
    let lastError = '';
    for (const [i, call] of reply.toolCalls.entries()) {
      touch(thread, call);
      const execution = await executeToolCall(call, env.exec, signal);
      await record({ role: 'tool', content: execution.content, toolCallId: call.id, toolName: call.name });
      const rest = reply.toolCalls.slice(i + 1);
      if (signal.aborted) {
        await closeCalls(rest, 'Not run: the turn was cancelled.');
        return { kind: 'cancelled' };
      }
      if (execution.denied) denied ??= `${call.name} was denied: ${firstLineOf(execution.content)}`;
      if (execution.ok) progress = observeSuccess(thread, call, execution.content) || progress;
      else lastError = `${call.name}: ${firstLineOf(execution.content)}`;
      if (execution.loopBreaking) {
        await closeCalls(rest, `Not run: ${call.name} ended the step first.`);
        return ok(firstLineOf(execution.content), thread, '');
      }
    }
    if (denied) return { kind: 'denied', summary: denied };
    if (progress) stalled = 0;
    else if (++stalled >= env.stallRounds) return failed(`no progress in ${stalled} rounds${lastError ? ` (last error: ${lastError})` : ' (the same calls again)'}`);
  }
}

function ok(summary: string, thread: StepThread, text: string): StepAttempt {
  return { kind: 'ok', summary: clip(summary, 300), result: digestResults(thread.results, text, STEP_RESULT_CHARS) };
}

/** The step's user message: its goal first (the executor finds its step by it), then its inputs. */
export function stepPrompt(input: Pick<StepInput, 'step' | 'index' | 'plan' | 'done'>, hotContext = ''): string {
  const { step, index, plan, done } = input;
  const lines = [`Step ${index + 1} of ${plan.steps.length}: ${step.goal}`];
  if (step.toolHint) lines.push(needsTool(step) ? `Suggested tool: ${step.toolHint}` : 'This step needs no tool: answer in text.');
  const deps = step.dependsOn.map((id) => done.get(id)).filter((r): r is StepRecord => r !== undefined);
  if (deps.length) {
    lines.push('', 'Results of the steps this one depends on:');
    for (const d of deps) lines.push(`- Step ${d.step.id} (${d.step.goal}) [${d.status}]: ${clip(d.result || d.summary, DEPENDENCY_RESULT_CHARS)}`);
  }
  if (hotContext) lines.push('', hotContext);
  return lines.join('\n');
}

function stepHeading(input: StepInput, text: string): string {
  const heading = `Step ${input.index + 1}/${input.plan.steps.length}: ${input.step.goal}`;
  return text.trim() ? `${heading}\n\n${text}` : heading;
}

function firstLineOf(text: string): string {
  return clip(text.split('\n', 1)[0] ?? '', 200);
}
