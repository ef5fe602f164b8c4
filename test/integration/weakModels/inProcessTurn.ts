// A real turn in-process against a fake server on one of the two wire formats: the real provider, built-in tools
// on a temp workspace, approval gate, turn runner and createTurnHooks. Cheaper than a CLI run, same parts.
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EventBus, type AgentEvent } from '../../../src/core/agent/events';
import { runTurn, type TurnOutcome } from '../../../src/core/agent/turnRunner';
import { ApprovalGate } from '../../../src/core/approval/gate';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import type { ChatMessage } from '../../../src/core/messages';
import type { ChatProvider } from '../../../src/core/provider';
import { composeSystemPrompt } from '../../../src/core/prompt/systemPromptBuilder';
import { createTurnHooks, type TurnHooksOptions } from '../../../src/core/resilience/turnHooks';
import { registerBuiltinTools } from '../../../src/core/tools/builtin/index';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';
import { OllamaProvider } from '../../../src/providers/ollama';
import { OpenAICompatibleProvider } from '../../../src/providers/openaiCompatible';
import { startFakeOllamaServer, startFakeOpenAIServer, type FakeServerHandle, type Script } from '../../helpers/fakeLlm';

export type WireName = 'ollama' | 'openai';
export const WIRES: readonly WireName[] = ['ollama', 'openai'];

export interface TurnRun {
  outcome: TurnOutcome;
  events: AgentEvent[];
  history: ChatMessage[];
  server: FakeServerHandle;
}

export function tempRoot(prefix: string): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), `lh-${prefix}-`)));
}

export async function startServer(wire: WireName, script: Script, name: string): Promise<{ server: FakeServerHandle; provider: ChatProvider }> {
  if (wire === 'ollama') {
    const server = await startFakeOllamaServer(script, { name });
    return { server, provider: new OllamaProvider({ host: server.origin }) };
  }
  const server = await startFakeOpenAIServer(script, { name });
  return { server, provider: new OpenAICompatibleProvider({ baseUrl: server.url }) };
}

/** One turn of `task` on `root` with every built-in tool but run_command, everything approved. */
export async function runTurnOn(
  wire: WireName,
  script: Script,
  root: string,
  task: string,
  settings: TurnHooksOptions['settings'] = {},
): Promise<TurnRun> {
  const { server, provider } = await startServer(wire, script, task);
  try {
    const bus = new EventBus();
    const events: AgentEvent[] = [];
    bus.on((e) => events.push(e));
    const registry = new ToolRegistry();
    registerBuiltinTools(registry, { exclude: ['run_command'] });
    const fs = new NodeFileSystem();
    const tracker = new ContextTracker();
    const hooks = createTurnHooks({ provider, model: 'test-model', registry, bus, settings, sleep: async () => {} });
    const signal = new AbortController().signal;
    const mode = await hooks.resolveToolProtocol(signal);
    const tools = registry.definitions();
    const history: ChatMessage[] = [];
    const outcome = await runTurn(
      history,
      task,
      {
        provider,
        model: 'test-model',
        registry,
        gate: new ApprovalGate({ policy: { autoApprove: ['read', 'write'], rules: [] } }),
        bus,
        toolContext: { roots: new WorkspaceRoots([{ name: 'ws', path: root }], fs), fs, runner: new NodeProcessRunner(), tracker },
        buildSystemPrompt: () =>
          composeSystemPrompt({ system: { os: 'Linux', shell: 'bash', workspaceFolders: [root] }, loopBreakingTools: true, toolProtocol: mode, tools }).text,
        hooks,
        maxRounds: 30,
      },
      signal,
    );
    return { outcome, events, history, server };
  } finally {
    await server.close();
  }
}

export function shownText(events: readonly AgentEvent[]): string {
  return events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
}

export function noticesOf(events: readonly AgentEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
}

/** The messages of a recorded request body, as sent. */
export function messagesOf(request: Record<string, unknown>): Array<Record<string, unknown>> {
  return Array.isArray(request.messages) ? (request.messages as Array<Record<string, unknown>>) : [];
}

/** The content of a recorded request's last message (a nudge or a tool result lands there). */
export function lastContent(request: Record<string, unknown>): string {
  const content = messagesOf(request).at(-1)?.content;
  return typeof content === 'string' ? content : '';
}
