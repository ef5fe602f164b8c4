// One step of a plan on the executor model: a short prompt (the step's goal, the results of the steps it depends
// on, the hot context), the tools chosen for the step, and up to `roundsPerStep` rounds. Tool calls go through the
// same executeToolCall as the normal loop (registry validation, approval gate, turn denials, result cap), and every
// call and result is appended to the session history in valid order, so the single-model loop can continue from it.
import type { ChatMessage, ToolCall, ToolDefinition } from '../messages';
import type { RoundReply } from '../agent/round';
import type { CallModelOptions } from '../agent/turnRunner';
import { executeToolCall, type ToolExecutionEnv } from '../agent/toolExecutor';
import type { Plan, PlanStep, StepRecord } from './plan';
import { needsTool } from './plan';
import { clip } from './digest';

export const DEFAULT_ROUNDS_PER_STEP = 4;
/** What one earlier step's result may take in a step prompt: a small model has a small window. */
const DEPENDENCY_RESULT_CHARS = 1200;
/** What a step's result keeps for later steps and the synthesis. */
const STEP_RESULT_CHARS = 2000;

/** The pre-filter as a step uses it (structurally the session's ToolPreFilter). */
export interface StepToolFilter {
  select(input: {
    definitions: readonly ToolDefinition[];
    query: string;
    keep: ReadonlySet<string>;
    window: number;
    signal: AbortSignal;
  }): Promise<{ tools: ToolDefinition[] }>;
}

export interface StepEnv {
  exec: ToolExecutionEnv;
  /** The executor's model call (retries, text tool protocol), emitting text/thinking/usage events. */
  callModel(round: number, messages: ChatMessage[], signal: AbortSignal, options: CallModelOptions): Promise<RoundReply>;
  /** Every tool the executor may be offered. */
  tools: readonly ToolDefinition[];
  toolFilter?: StepToolFilter;
  /** The executor's window, for the pre-filter's budget (0: unknown). */
  window: number;
  hotContext(): string;
  /** Appends to the session history (and persists). */
  append(message: ChatMessage): Promise<void>;
  /** The turn's next round number (round_start numbering across planner, executor and synthesis). */
  nextRound(): number;
  roundsPerStep: number;
}

export type StepAttempt =
  | { kind: 'ok'; summary: string; result: string }
  /** Tools were called but the step did not succeed; `messages` show the executor what went wrong on a retry. */
  | { kind: 'failed'; reason: string; messages: ChatMessage[] }
  /** The executor answered with text and no tool call for a step that needs one. */
  | { kind: 'no_tool'; text: string }
  /** The user denied a call: their decision, not the model's failure; not retried. */
  | { kind: 'denied'; summary: string }
  | { kind: 'cancelled' };

export interface StepInput {
  step: PlanStep;
  index: number;
  plan: Plan;
  done: ReadonlyMap<string, StepRecord>;
  /** The failed attempt's exchange, shown again on the retry (or a resumed step's calls so far). */
  previous?: ChatMessage[];
  /** Successful results already in `previous` (a resumed step): they count towards the step being done. */
  previousResults?: string[];
}

export async function executeStep(input: StepInput, env: StepEnv, signal: AbortSignal): Promise<StepAttempt> {
  const { step } = input;
  const exchange: ChatMessage[] = [...(input.previous ?? [])];
  const base: ChatMessage[] = [
    { role: 'system', content: executorSystemPrompt(env.hotContext()) },
    { role: 'user', content: stepPrompt(input) },
  ];
  const tools = await stepTools(step, env, signal);
  const results: string[] = [...(input.previousResults ?? [])];
  let okCalls = results.length;
  let lastRoundOk = false;
  let firstMessage = true;
  const record = async (message: ChatMessage) => {
    exchange.push(message);
    await env.append(message);
  };
  const closeCalls = async (calls: readonly ToolCall[], text: string) => {
    for (const call of calls) await record({ role: 'tool', content: text, toolCallId: call.id, toolName: call.name });
  };

  for (let round = 0; round < env.roundsPerStep; round++) {
    if (signal.aborted) return { kind: 'cancelled' };
    env.exec.bus.emit({ type: 'round_start', round: env.nextRound() });
    const reply = await env.callModel(round, [...base, ...exchange], signal, { tools });
    if (signal.aborted) return { kind: 'cancelled' };

    if (reply.toolCalls.length === 0) {
      const text = reply.text.trim();
      if (okCalls > 0 || !needsTool(step)) return ok(text || firstLineOf(results.at(-1) ?? ''), results, text);
      if (round === 0 && exchange.length === (input.previous?.length ?? 0)) return { kind: 'no_tool', text };
      return { kind: 'failed', reason: text ? `the executor stopped: ${clip(text, 200)}` : 'no tool call succeeded', messages: exchange };
    }

    // The first call of a step says which step it serves: the history reads like a model narrating its plan.
    const assistant: ChatMessage = { role: 'assistant', content: firstMessage ? stepHeading(input, reply.text) : reply.text, toolCalls: reply.toolCalls };
    if (reply.thinking) assistant.thinking = reply.thinking;
    firstMessage = false;
    await record(assistant);

    let denied: string | undefined;
    lastRoundOk = true;
    for (const [i, call] of reply.toolCalls.entries()) {
      const execution = await executeToolCall(call, env.exec, signal);
      await record({ role: 'tool', content: execution.content, toolCallId: call.id, toolName: call.name });
      const rest = reply.toolCalls.slice(i + 1);
      if (signal.aborted) {
        await closeCalls(rest, 'Not run: the turn was cancelled.');
        return { kind: 'cancelled' };
      }
      if (execution.denied) denied ??= `${call.name} was denied: ${firstLineOf(execution.content)}`;
      if (execution.ok) {
        okCalls++;
        results.push(`${call.name}: ${execution.content}`);
      } else lastRoundOk = false;
      if (execution.loopBreaking) {
        await closeCalls(rest, `Not run: ${call.name} ended the step first.`);
        return ok(firstLineOf(execution.content), results, '');
      }
    }
    if (denied) return { kind: 'denied', summary: denied };
  }
  if (okCalls > 0 && lastRoundOk) return ok(firstLineOf(results.at(-1) ?? ''), results, '');
  return { kind: 'failed', reason: `no success after ${env.roundsPerStep} rounds`, messages: exchange };
}

function ok(summary: string, results: string[], text: string): StepAttempt {
  const result = clip([...results, ...(text ? [text] : [])].join('\n'), STEP_RESULT_CHARS);
  return { kind: 'ok', summary: clip(summary, 300), result };
}

async function stepTools(step: PlanStep, env: StepEnv, signal: AbortSignal): Promise<ToolDefinition[]> {
  if (!needsTool(step) && !step.toolHint) return [...env.tools];
  if (!env.toolFilter) return [...env.tools];
  const hinted = new Set(step.toolHint && env.tools.some((t) => t.name === step.toolHint) ? [step.toolHint] : []);
  const selection = await env.toolFilter.select({
    definitions: env.tools,
    query: [step.goal, step.toolHint ?? ''].join('\n'),
    keep: hinted,
    window: env.window,
    signal,
  });
  return selection.tools;
}

export function executorSystemPrompt(hotContext: string): string {
  return [
    'You carry out ONE step of a larger task, using the tools offered. Call the tool the step needs with exact',
    'arguments. When the step is done, reply with one short sentence saying what you did. Do nothing beyond this step.',
    ...(hotContext ? ['', hotContext] : []),
  ].join('\n');
}

export function stepPrompt(input: StepInput): string {
  const { step, index, plan, done } = input;
  const lines = [`Step ${index + 1} of ${plan.steps.length}: ${step.goal}`];
  if (step.toolHint) lines.push(needsTool(step) ? `Suggested tool: ${step.toolHint}` : 'This step needs no tool: answer in text.');
  const deps = step.dependsOn.map((id) => done.get(id)).filter((r): r is StepRecord => r !== undefined);
  if (deps.length) {
    lines.push('', 'Results of the steps this one depends on:');
    for (const d of deps) lines.push(`- Step ${d.step.id} (${d.step.goal}) [${d.status}]: ${clip(d.result || d.summary, DEPENDENCY_RESULT_CHARS)}`);
  }
  return lines.join('\n');
}

function stepHeading(input: StepInput, text: string): string {
  const heading = `Step ${input.index + 1}/${input.plan.steps.length}: ${input.step.goal}`;
  return text.trim() ? `${heading}\n\n${text}` : heading;
}

function firstLineOf(text: string): string {
  return clip(text.split('\n', 1)[0] ?? '', 200);
}
