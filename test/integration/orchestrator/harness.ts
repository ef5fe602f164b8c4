// An in-process AgentSession with the planner/executor orchestrator, its planner, executor and main model each
// on a real fake server (any may be a closed port), on a real temp workspace with the header task.
import { createServer } from 'node:net';
import path from 'node:path';
import { builtSession, NO_BACKOFF } from '../../helpers/builtSession';
import { EventBus, type AgentEvent } from '../../../src/core/agent/events';
import type { TurnOutcome } from '../../../src/core/agent/turnRunner';
import { ApprovalGate, type ApprovalAsker } from '../../../src/core/approval/gate';
import { ContextTracker, type Todo } from '../../../src/core/workingContext/tracker';
import type { ChatMessage } from '../../../src/core/messages';
import type { ChatProvider } from '../../../src/core/provider';
import type { RiskLevel } from '../../../src/core/tools/tool';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { registerBuiltinTools } from '../../../src/core/tools/builtin/index';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle, type Script } from '../../helpers/fakeLlm';

export interface Wire {
  name: 'ollama' | 'openai';
  start(script: Script, name: string): Promise<FakeServerHandle>;
  provider(url: string): ChatProvider;
  /** The URL a provider takes for a server (a closed port too). */
  urlOf(server: FakeServerHandle): string;
  closedUrl(port: number): string;
}

export const WIRES: Wire[] = [
  {
    name: 'ollama',
    start: (script, name) => startFakeOllamaServer(script, { name }),
    provider: (url) => new OllamaProvider({ host: url, firstByteTimeoutMs: 5000 }),
    urlOf: (s) => s.origin,
    closedUrl: (port) => `http://127.0.0.1:${port}`,
  },
  {
    name: 'openai',
    start: (script, name) => startFakeOpenAIServer(script, { name }),
    provider: (url) => new OpenAICompatibleProvider({ baseUrl: url, firstByteTimeoutMs: 5000 }),
    urlOf: (s) => s.url,
    closedUrl: (port) => `http://127.0.0.1:${port}/v1`,
  },
];

/** A port nothing listens on: bound, then closed. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface OrchestratedRun {
  outcome: TurnOutcome;
  events: AgentEvent[];
  history: ChatMessage[];
  /** Every todo list the tracker held, in order. */
  todoLists: Todo[][];
  /** Questions the approval asker was asked (tool names). */
  asked: string[];
}

export interface RunInput {
  ws: string;
  task: string;
  planner: ChatProvider;
  executor: ChatProvider;
  main: ChatProvider;
  autoApprove?: RiskLevel[];
  ask?: ApprovalAsker;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** The executor's window (its contextSize). */
  executorWindow?: number;
  /** The turn's executor round budget (the orchestrator's maxRounds). */
  executorRounds?: number;
}

export async function runOrchestrated(input: RunInput): Promise<OrchestratedRun> {
  const bus = new EventBus();
  const events: AgentEvent[] = [];
  bus.on((e) => {
    events.push(e);
    input.onEvent?.(e);
  });
  const registry = new ToolRegistry();
  registerBuiltinTools(registry);
  const fs = new NodeFileSystem();
  const tracker = new ContextTracker();
  const todoLists: Todo[][] = [];
  tracker.onChange((s) => todoLists.push(s.todos));
  const asked: string[] = [];
  const ask: ApprovalAsker =
    input.ask ??
    (async (request) => {
      asked.push(request.toolName);
      return { approved: true, scope: 'once' };
    });
  const session = builtSession(
    {
      provider: input.main,
      model: 'main-model',
      registry,
      gate: new ApprovalGate({ policy: { autoApprove: input.autoApprove ?? ['read'], rules: [] }, ask }),
      tracker,
      roots: new WorkspaceRoots([{ name: path.basename(input.ws), path: input.ws }], fs),
      fs,
      runner: new NodeProcessRunner(),
      bus,
      systemInfo: { os: 'Linux', shell: '/bin/sh', workspaceFolders: [input.ws] },
    },
    // The scripted servers do not list main-model: its window is the user's setting, as they would set it.
    { agent: NO_BACKOFF, configuredWindow: 32_768 },
    {
      orchestrator: {
        planner: { provider: input.planner, model: 'planner-model' },
        executor: { provider: input.executor, model: 'executor-model', ...(input.executorWindow !== undefined && { contextSize: input.executorWindow }) },
        ...(input.executorRounds !== undefined && { maxRounds: input.executorRounds }),
      },
    },
  );
  const outcome = await session.send(input.task, input.signal ?? new AbortController().signal);
  return { outcome, events, history: session.history, todoLists, asked };
}

/** Tool names a request offered (both wire formats put them in `tools`). */
export function offered(request: { tools?: unknown }): string[] {
  return Array.isArray(request.tools) ? (request.tools as Array<{ function?: { name?: string } }>).map((t) => t.function?.name ?? '') : [];
}

/** Successful tool results by tool name and file, from the events. */
export function okResults(events: readonly AgentEvent[], name: string): string[] {
  const callsById = new Map<string, unknown>();
  const out: string[] = [];
  for (const e of events) {
    if (e.type === 'tool_call') callsById.set(e.id, e.arguments);
    if (e.type === 'tool_result' && e.name === name && e.ok) out.push(String((callsById.get(e.id) as { path?: string } | undefined)?.path ?? ''));
  }
  return out;
}

/** Every assistant tool call in history has its results right after it, in order. */
export function historyIsValid(history: readonly ChatMessage[]): boolean {
  for (let i = 0; i < history.length; i++) {
    const m = history[i]!;
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    const results = history.slice(i + 1, i + 1 + m.toolCalls.length);
    if (results.length !== m.toolCalls.length || results.some((r, k) => r.role !== 'tool' || r.toolCallId !== m.toolCalls![k]!.id)) return false;
  }
  return true;
}
