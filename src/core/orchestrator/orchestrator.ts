// Two models, one turn: the planner splits the request into steps (no tools), the executor carries out each step
// with tools until it is done (runSteps.ts, execute.ts), the planner writes the answer from the results and checks
// them against the plan's done_when. Every message lands in the session history as the normal loop would write it,
// so when anything in the pipeline fails, or the answer shows work left, the ordinary single-model loop continues
// from that history, with a notice saying why, and nothing that already ran is run again.
import { randomUUID } from 'node:crypto';
import { modelText, type ChatMessage, type ToolDefinition } from '../messages';
import { ProviderError, type ChatProvider } from '../provider';
import { EventBus } from '../agent/events';
import { DEFAULT_MAX_ROUNDS, DEFAULT_MAX_TOOL_RESULT_CHARS, runTurn, type TurnConfig, type TurnOutcome } from '../agent/turnRunner';
import { errorMessage } from '../../shared/format';
import { TurnDenials } from '../approval/turnDenials';
import type { ContextTracker, Todo } from '../workingContext/tracker';
import { renderHotContext } from '../workingContext/hotContext';
import { TokenMeter } from '../window/meter';
import { createTurnHooks } from '../resilience/turnHooks';
import type { TurnHooksSettingsInput } from '../resilience/turnHooksSettings';
import type { Sleep } from '../resilience/backoff';
import { StructuredOutputError } from '../structured';
import { DEFAULT_MAX_STEPS, makePlan, type Plan, type StepRecord } from './planRequest';
import { DEFAULT_STALL_ROUNDS, type StepEnv } from './execute';
import { selectRunTools, type StepToolFilter } from './runTools';
import { isAbort, runSteps } from './runSteps';
import { continuationText, requestIndex } from './stepHistory';
import { synthesize, type Synthesis } from './synthesize';
import { digestConversation } from './stepShortening';
import type { CheckedToolProtocol } from '../toolProtocol/protocolSetting';

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
  /**
   * Executor rounds the whole turn may use, over all steps (default 4 × the session's maxRounds: 80). A step goes
   * on while it makes progress; this bounds the turn.
   */
  maxRounds?: number;
  /** Rounds in a row a step may go without progress before the attempt fails (default 4). */
  stallRounds?: number;
}

export interface OrchestratorDeps {
  tracker: ContextTracker;
  /** Weak-model settings for the executor's calls (tool protocol, retries). */
  agentSettings?: TurnHooksSettingsInput;
  /** The setup check's finding on the executor model's tool calling. */
  checkedProtocol?: CheckedToolProtocol;
  toolFilter?: StepToolFilter;
  think?: boolean;
  sleep?: Sleep;
}

/** Tools the orchestrator keeps to itself: it owns the todo list and ends the turn; the executor asks no one. */
const NOT_FOR_EXECUTOR = new Set(['task_completion', 'ask_question', 'todo_write']);
const CONVERSATION_CHARS = 3000;
/** The executor's round budget per round of the single-model loop's limit: its rounds are small and fast. */
const EXECUTOR_ROUNDS_PER_ROUND = 4;

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
    ...(deps.checkedProtocol && { checkedProtocol: deps.checkedProtocol }),
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
    const message = `Unexpected error: ${errorMessage(err)}`;
    if (reason === 'error') bus.emit({ type: 'error', message });
    bus.emit({ type: 'turn_end', reason });
    return { reason, rounds: 0, ...(reason === 'error' && { error: message }) };
  }
}

async function orchestrate(input: TurnInput, signal: AbortSignal): Promise<TurnOutcome> {
  const { history, text: userText, config, options, deps } = input;
  const { bus, registry } = config;
  // The planner and the executor read the request with the code attached to it; history keeps the two apart.
  const attachments = config.attachments;
  const text = attachments?.length ? modelText({ content: userText, attachments: [...attachments] }) : userText;
  const request: ChatMessage = {
    role: 'user',
    content: userText,
    ...(attachments?.length && { attachments: [...attachments] }),
    ...(config.images?.length && { images: [...config.images] }),
  };
  const { tracker } = deps;
  const { resume } = input;
  const earlier = digestConversation(history, CONVERSATION_CHARS);
  let rounds = 0;
  // A resumed run's request is already stored once its first step wrote anything.
  let userAppended = resume !== undefined && requestIndex(history, userText) >= 0;
  const append = async (message: ChatMessage) => {
    history.push(message);
    await config.onMessage?.(message);
  };
  // The request goes into history with the first message that follows it; a fallback before any step sends it itself.
  const appendAfterRequest = async (message: ChatMessage) => {
    if (!userAppended) {
      userAppended = true;
      await append(request);
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
      await append(request).catch(() => undefined);
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
    // Once the request is in history, the loop continues it (its attachments are there already).
    const continuation = userAppended ? continuationText(userText, reason, records) : userText;
    const { attachments: _sent, images: _shown, ...rest } = config;
    const outcome = await runTurn(history, continuation, { ...(userAppended ? rest : config), bus: inner }, signal);
    return { ...outcome, rounds: outcome.rounds + rounds };
  };

  bus.emit({ type: 'turn_start', turnId: resume?.turnId ?? randomUUID(), message: userText, ...(attachments?.length && { attachments: attachments.map((a) => a.label) }) });
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

  // 2. Execute, step by step, every step offered the same tools.
  const window = options.executor.contextSize ?? 0;
  let tools: ToolDefinition[];
  try {
    tools = await selectRunTools(text, plan, executorTools, deps.toolFilter, window, signal);
  } catch (err) {
    if (signal.aborted || isAbort(err)) return cancelled();
    tools = executorTools; // the pre-filter only saves tokens: without it every tool is offered
  }
  const env: StepEnv = {
    exec: {
      registry,
      gate: config.gate,
      bus,
      context: config.toolContext,
      maxResultChars: config.maxToolResultChars ?? DEFAULT_MAX_TOOL_RESULT_CHARS,
      now: config.now ?? Date.now,
      denials: new TurnDenials(),
      ...(config.allowedRisks && { allowedRisks: config.allowedRisks }),
    },
    callModel: input.callExecutor,
    tools,
    window,
    meter: new TokenMeter(),
    hotContext: () => renderHotContext(tracker.snapshot()),
    append: appendAfterRequest,
    nextRound: () => rounds++,
    budget: { limit: options.maxRounds ?? EXECUTOR_ROUNDS_PER_ROUND * (config.maxRounds ?? DEFAULT_MAX_ROUNDS), used: 0 },
    stallRounds: options.stallRounds ?? DEFAULT_STALL_ROUNDS,
  };
  const denied = new Set<string>();
  const stopped = await runSteps(
    {
      bus,
      tracker,
      history,
      request: text,
      executor: { model: options.executor.model, url: options.executor.provider.baseUrl },
      records,
      denied,
      requestStored: () => userAppended,
      cancelled,
      fallback,
      end,
      rounds: () => rounds,
    },
    plan,
    env,
    resume?.records,
    signal,
  );
  if (stopped) return stopped;

  // 3. Synthesize: the answer, and the check of done_when against the results.
  if (signal.aborted) return cancelled();
  bus.emit({ type: 'round_start', round: rounds++ });
  let answer: Synthesis;
  try {
    answer = await synthesize(
      {
        provider: options.planner.provider,
        model: options.planner.model,
        request: text,
        plan,
        records,
        signal,
        registry,
        ...(config.allowedRisks && { allowedRisks: config.allowedRisks }),
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
  let result = answer.text;
  if (answer.workLeft) {
    // What the user refused is not done behind their back: the answer says what ran and what did not.
    if (denied.size === 0) return fallback(`the planner's answer shows work left (${answer.workLeft})`);
    result = plainAnswer(records);
    bus.emit({ type: 'text', text: result });
  }
  const message: ChatMessage = { role: 'assistant', content: result };
  if (answer.thinking) message.thinking = answer.thinking;
  await appendAfterRequest(message);
  return end({ reason: 'completed', result, rounds });
}

/** The steps as the answer when the planner's own could not be shown. */
function plainAnswer(records: readonly StepRecord[]): string {
  const lines = records.map((r, i) => `${i + 1}. ${r.step.goal} — ${r.status === 'ok' ? 'done' : r.status}${r.status !== 'ok' && r.summary ? `: ${r.summary}` : ''}`);
  return `Not everything was done. The steps:\n${lines.join('\n')}`;
}
