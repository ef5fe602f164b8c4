// Two models, one turn: the planner splits the request into steps (no tools), the executor carries out each step
// with tools, the planner writes the answer from the results. Every message lands in the session history as the
// normal loop would write it, so when anything in the pipeline fails the ordinary single-model loop continues from
// that history, with a notice saying why, and nothing that already ran is run again.
import { randomUUID } from 'node:crypto';
import type { ChatMessage, ToolDefinition } from '../messages';
import { ProviderError, type ChatProvider } from '../provider';
import { EventBus } from '../agent/events';
import { runTurn, type TurnConfig, type TurnOutcome } from '../agent/turnRunner';
import { DEFAULT_MAX_TOOL_RESULT_CHARS } from '../agent/turnRunner';
import { errorText, type ToolExecutionEnv } from '../agent/toolExecutor';
import { TurnDenials } from '../approval/turnDenials';
import type { ContextTracker, Todo } from '../context/tracker';
import { renderHotContext } from '../context/hotContext';
import { createTurnHooks } from '../resilience/turnHooks';
import type { TurnHooksSettingsInput } from '../resilience/settings';
import type { Sleep } from '../resilience/backoff';
import { StructuredOutputError } from '../structured';
import { DEFAULT_MAX_STEPS, makePlan, type Plan, type StepRecord } from './plan';
import { DEFAULT_ROUNDS_PER_STEP, executeStep, type StepAttempt, type StepEnv, type StepToolFilter } from './execute';
import { synthesize } from './synthesize';
import { digestConversation, digestSteps } from './digest';

export interface OrchestratorEndpoint {
  provider: ChatProvider;
  model: string;
  /** The window to request / budget against on this server (Ollama num_ctx). */
  contextSize?: number;
}

/** The session option: both models given → each user turn is planned, executed step by step and synthesized. */
export interface OrchestratorOptions {
  planner: OrchestratorEndpoint;
  executor: OrchestratorEndpoint;
  /** Most steps a plan may have (default 12). */
  maxSteps?: number;
  /** Executor rounds per step attempt (default 4). */
  roundsPerStep?: number;
}

export interface OrchestratorDeps {
  tracker: ContextTracker;
  /** Weak-model settings for the executor's calls (tool protocol, retries). */
  agentSettings?: TurnHooksSettingsInput;
  toolFilter?: StepToolFilter;
  think?: boolean;
  sleep?: Sleep;
}

/** Tools the orchestrator keeps to itself: it owns the todo list and ends the turn; the executor asks no one. */
const NOT_FOR_EXECUTOR = new Set(['task_completion', 'ask_question', 'todo_write']);
const CONVERSATION_CHARS = 3000;
const CONTINUATION_RESULTS_CHARS = 3000;

export interface Orchestrator {
  /** One user turn on `history` (appended to in place). `config` is the session's normal turn: the fallback. */
  run(history: ChatMessage[], text: string, config: TurnConfig, signal: AbortSignal): Promise<TurnOutcome>;
  /**
   * Continues a stored run (after a reload or a Stop) at its first unfinished step, without planning again:
   * finished steps keep their results, a step cut off halfway sees what it already did, then the answer.
   */
  resume(history: ChatMessage[], run: SavedRun, config: TurnConfig, signal: AbortSignal): Promise<TurnOutcome>;
}

/** What a session stored about a planned run (src/persistence/planRuns.ts): enough to continue it. */
export interface SavedRun {
  turnId: string;
  request: string;
  plan: Plan;
  records: ReadonlyArray<{ stepId: string; status: StepRecord['status']; summary: string; result: string }>;
}

/** No network here: the executor's hooks resolve its tool protocol on the first call. */
export function createOrchestrator(options: OrchestratorOptions, deps: OrchestratorDeps, bus: EventBus, registry: TurnConfig['registry'], allowedRisks?: TurnConfig['allowedRisks']): Orchestrator {
  const executorHooks = createTurnHooks({
    provider: options.executor.provider,
    model: options.executor.model,
    registry,
    bus,
    ...(allowedRisks && { allowedRisks }),
    ...(deps.agentSettings && { settings: deps.agentSettings }),
    ...(options.executor.contextSize !== undefined && { contextSize: options.executor.contextSize }),
    ...(deps.sleep && { sleep: deps.sleep }),
  });
  return {
    run: (history, text, config, signal) => runOrchestratedTurn({ history, text, config, options, deps, callExecutor: executorHooks.callModel }, signal),
    resume: (history, run, config, signal) =>
      runOrchestratedTurn({ history, text: run.request, config, options, deps, callExecutor: executorHooks.callModel, resume: run }, signal),
  };
}

interface TurnInput {
  history: ChatMessage[];
  text: string;
  config: TurnConfig;
  options: OrchestratorOptions;
  deps: OrchestratorDeps;
  callExecutor: StepEnv['callModel'];
  resume?: SavedRun;
}

async function runOrchestratedTurn(input: TurnInput, signal: AbortSignal): Promise<TurnOutcome> {
  try {
    return await orchestrate(input, signal);
  } catch (err) {
    // A defect, not a model or server failure (those fall back): end the turn the way runTurn would.
    const { bus } = input.config;
    const reason = signal.aborted ? 'cancelled' : 'error';
    const message = `Unexpected error: ${errorText(err)}`;
    if (reason === 'error') bus.emit({ type: 'error', message });
    bus.emit({ type: 'turn_end', reason });
    return { reason, rounds: 0, ...(reason === 'error' && { error: message }) };
  }
}

async function orchestrate(input: TurnInput, signal: AbortSignal): Promise<TurnOutcome> {
  const { history, text, config, options, deps } = input;
  const { bus, registry } = config;
  const { tracker } = deps;
  const { resume } = input;
  const earlier = digestConversation(history, CONVERSATION_CHARS);
  let rounds = 0;
  // A resumed run's request is already stored once its first step wrote anything.
  let userAppended = resume !== undefined && requestIndex(history, text) >= 0;
  const append = async (message: ChatMessage) => {
    history.push(message);
    await config.onMessage?.(message);
  };
  // The request goes into history with the first message that follows it; a fallback before any step sends it itself.
  const appendAfterRequest = async (message: ChatMessage) => {
    if (!userAppended) {
      userAppended = true;
      await append({ role: 'user', content: text });
    }
    await append(message);
  };
  const end = (outcome: TurnOutcome): TurnOutcome => {
    bus.emit({ type: 'turn_end', reason: outcome.reason, ...(outcome.result !== undefined && { result: outcome.result }) });
    return outcome;
  };
  const cancelled = async () => {
    if (!userAppended) {
      userAppended = true;
      await append({ role: 'user', content: text }).catch(() => undefined);
    }
    return end({ reason: 'cancelled', rounds });
  };
  const todosBefore: Todo[] = tracker.todos();
  const records: StepRecord[] = [];

  const fallback = async (reason: string): Promise<TurnOutcome> => {
    tracker.setTodos(todosBefore); // the plan's open items would nag the single-model loop about work it may do differently
    bus.emit({ type: 'plan_fallback', reason });
    bus.emit({ type: 'notice', message: `The planned run stopped: ${reason}. Continuing in the single-model loop with ${config.model}${userAppended ? '; the tool calls already made are kept and not repeated' : ''}.` });
    // The nested turn is this turn: its turn_start is not news, its turn_end is ours.
    const inner = new EventBus();
    inner.on((e) => {
      if (e.type !== 'turn_start') bus.emit(e);
    });
    const continuation = userAppended ? continuationText(text, reason, records) : text;
    const outcome = await runTurn(history, continuation, { ...config, bus: inner }, signal);
    return { ...outcome, rounds: outcome.rounds + rounds };
  };

  bus.emit({ type: 'turn_start', turnId: resume?.turnId ?? randomUUID(), message: text });
  const all = registry.definitions(config.allowedRisks);
  const executorTools: ToolDefinition[] = all.filter((t) => !NOT_FOR_EXECUTOR.has(t.name));

  // 1. Plan (a resumed run keeps its plan).
  let plan: Plan;
  if (resume) plan = resume.plan;
  else try {
    bus.emit({ type: 'status', message: `Planning with ${options.planner.model}…` });
    rounds++;
    const planned = await makePlan({
      provider: options.planner.provider,
      model: options.planner.model,
      request: text,
      conversation: earlier,
      hotContext: renderHotContext(tracker.snapshot()),
      tools: executorTools,
      maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
      signal,
      ...(options.planner.contextSize !== undefined && { contextSize: options.planner.contextSize }),
      ...(deps.think !== undefined && { think: deps.think }),
    });
    rounds += planned.attempts - 1;
    plan = planned.plan;
  } catch (err) {
    if (signal.aborted || isAbort(err)) return cancelled();
    if (err instanceof StructuredOutputError) return fallback(`the planner's plan was invalid twice (${err.issues.slice(0, 2).join('; ') || 'no usable JSON'})`);
    if (err instanceof ProviderError) return fallback(`the planner (${options.planner.model} at ${options.planner.provider.baseUrl}) failed: ${err.message}`);
    throw err;
  }
  bus.emit({ type: 'plan', steps: plan.steps.map((s) => ({ ...s, dependsOn: [...s.dependsOn] })), doneWhen: plan.doneWhen, ...(resume && { resumed: true }) });
  const earlierRecords = new Map((resume?.records ?? []).map((r) => [r.stepId, r]));
  const todos: Todo[] = plan.steps.map((s) => ({ text: s.goal, status: earlierRecords.get(s.id)?.status === 'ok' ? 'done' : 'pending' }));
  const setStatus = (i: number, status: Todo['status']) => {
    todos[i] = { ...todos[i]!, status };
    tracker.setTodos(todos);
  };
  tracker.setTodos(todos);

  // 2. Execute, step by step.
  const exec: ToolExecutionEnv = {
    registry,
    gate: config.gate,
    bus,
    context: config.toolContext,
    maxResultChars: config.maxToolResultChars ?? DEFAULT_MAX_TOOL_RESULT_CHARS,
    now: config.now ?? Date.now,
    denials: new TurnDenials(),
    ...(config.allowedRisks && { allowedRisks: config.allowedRisks }),
  };
  const env: StepEnv = {
    exec,
    callModel: input.callExecutor,
    tools: executorTools,
    ...(deps.toolFilter && { toolFilter: deps.toolFilter }),
    window: options.executor.contextSize ?? 0,
    hotContext: () => renderHotContext(tracker.snapshot()),
    append: appendAfterRequest,
    nextRound: () => rounds++,
    roundsPerStep: options.roundsPerStep ?? DEFAULT_ROUNDS_PER_STEP,
  };
  const done = new Map<string, StepRecord>();
  const finish = (record: StepRecord) => {
    records.push(record);
    done.set(record.step.id, record);
    bus.emit({ type: 'step_end', stepId: record.step.id, status: record.status, ...(record.summary && { summary: record.summary }), ...(record.result && { result: record.result }) });
  };
  for (const step of plan.steps) {
    const saved = earlierRecords.get(step.id);
    if (!saved) continue;
    const record: StepRecord = { step, status: saved.status, summary: saved.summary, result: saved.result };
    records.push(record);
    done.set(step.id, record);
  }
  if (resume && userAppended) await closeUnansweredCalls(history, appendAfterRequest);
  for (const [index, step] of plan.steps.entries()) {
    if (done.has(step.id)) continue;
    if (signal.aborted) return cancelled();
    const blocked = step.dependsOn.map((id) => done.get(id)).find((r) => r && r.status !== 'ok');
    bus.emit({ type: 'step_start', stepId: step.id, goal: step.goal, index, total: plan.steps.length });
    if (blocked) {
      finish({ step, status: 'skipped', summary: `skipped: step ${blocked.step.id} did not succeed`, result: '' });
      continue;
    }
    setStatus(index, 'in_progress');
    let attempt: StepAttempt;
    // A step the reload cut off halfway: the executor sees its own calls and results instead of starting over.
    const cutOff = resume && userAppended ? stepExchange(history, text, index, plan.steps.length) : undefined;
    try {
      attempt = await executeStep({ step, index, plan, done, ...(cutOff && { previous: cutOff.messages, previousResults: cutOff.results }) }, env, signal);
      if (attempt.kind === 'failed') attempt = await executeStep({ step, index, plan, done, previous: attempt.messages }, env, signal);
    } catch (err) {
      if (signal.aborted || isAbort(err)) {
        finish({ step, status: 'failed', summary: 'cancelled', result: '' });
        return cancelled();
      }
      finish({ step, status: 'failed', summary: errorText(err), result: '' });
      if (err instanceof ProviderError) return fallback(`the executor (${options.executor.model} at ${options.executor.provider.baseUrl}) failed on step ${index + 1}: ${err.message}`);
      throw err;
    }
    switch (attempt.kind) {
      case 'ok':
        finish({ step, status: 'ok', summary: attempt.summary, result: attempt.result });
        setStatus(index, 'done');
        break;
      case 'denied':
        // The user's no is an answer: the step failed, the plan goes on, nothing is retried behind their back.
        finish({ step, status: 'failed', summary: attempt.summary, result: '' });
        setStatus(index, 'pending');
        break;
      case 'cancelled':
        finish({ step, status: 'failed', summary: 'cancelled', result: '' });
        return cancelled();
      case 'no_tool':
        finish({ step, status: 'failed', summary: 'the executor answered without calling a tool', result: '' });
        return fallback(`the executor (${options.executor.model}) answered step ${index + 1} without calling a tool${attempt.text ? ` ("${attempt.text.slice(0, 80)}")` : ''}`);
      case 'failed':
        finish({ step, status: 'failed', summary: attempt.reason, result: '' });
        return fallback(`step ${index + 1} ("${step.goal.slice(0, 80)}") failed twice: ${attempt.reason}`);
    }
  }

  // 3. Synthesize.
  if (signal.aborted) return cancelled();
  bus.emit({ type: 'round_start', round: rounds++ });
  let answer;
  try {
    answer = await synthesize(
      {
        provider: options.planner.provider,
        model: options.planner.model,
        request: text,
        plan,
        records,
        signal,
        ...(options.planner.contextSize !== undefined && { contextSize: options.planner.contextSize }),
        ...(deps.think !== undefined && { think: deps.think }),
      },
      bus,
    );
  } catch (err) {
    if (signal.aborted || isAbort(err)) return cancelled();
    if (err instanceof ProviderError) return fallback(`the planner (${options.planner.model} at ${options.planner.provider.baseUrl}) could not write the answer: ${err.message}`);
    throw err;
  }
  if (signal.aborted) return cancelled();
  const message: ChatMessage = { role: 'assistant', content: answer.text };
  if (answer.thinking) message.thinking = answer.thinking;
  await appendAfterRequest(message);
  return end({ reason: 'completed', result: answer.text, rounds });
}

function isAbort(err: unknown): boolean {
  return err instanceof ProviderError && err.kind === 'aborted';
}

/** What the single-model loop is told when it takes over a planned run. */
export function continuationText(request: string, reason: string, records: readonly StepRecord[]): string {
  return [
    `The planned run of this request stopped (${reason}). Continue it yourself with the tools.`,
    'The tool calls above already ran: do not repeat them. Check their results and do only what is left.',
    '',
    `Request: ${request}`,
    '',
    'Steps so far:',
    digestSteps(records, CONTINUATION_RESULTS_CHARS),
  ].join('\n');
}

/** Where the request sits in history (the last user message with exactly its text), or -1. */
function requestIndex(history: readonly ChatMessage[], request: string): number {
  for (let i = history.length - 1; i >= 0; i--) if (history[i]!.role === 'user' && history[i]!.content === request) return i;
  return -1;
}

/** A reload can cut a step between a tool call and its result: every call gets an answer before anything else is sent. */
async function closeUnansweredCalls(history: readonly ChatMessage[], append: (m: ChatMessage) => Promise<void>): Promise<void> {
  const answered = new Set(history.filter((m) => m.role === 'tool').map((m) => m.toolCallId));
  const last = [...history].reverse().find((m) => m.role === 'assistant');
  for (const call of last?.toolCalls ?? []) {
    if (!answered.has(call.id)) {
      await append({ role: 'tool', content: 'Not run: the session was interrupted before this call finished. Check its effect before calling it again.', toolCallId: call.id, toolName: call.name });
    }
  }
}

/** The messages a step already wrote to history (from its "Step i/n:" heading on), and its successful results. */
export function stepExchange(history: readonly ChatMessage[], request: string, index: number, total: number): { messages: ChatMessage[]; results: string[] } | undefined {
  const from = requestIndex(history, request);
  const heading = `Step ${index + 1}/${total}:`;
  let start = -1;
  for (let i = history.length - 1; i > from; i--) {
    const m = history[i]!;
    if (m.role === 'assistant' && m.content.startsWith(heading)) {
      start = i;
      break;
    }
  }
  if (start < 0) return undefined;
  const messages = history.slice(start).filter((m) => m.role === 'assistant' || m.role === 'tool');
  const results = messages.filter((m) => m.role === 'tool' && !/^(Error|Not run|Cancelled|The user denied)\b/.test(m.content)).map((m) => `${m.toolName ?? 'tool'}: ${m.content}`);
  return { messages, results };
}
