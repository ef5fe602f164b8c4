// A real turn on a real temp workspace: the built-in tools on node's file system, the real registry,
// approval gate and turn runner, with createTurnHooks plugged in and a scripted model.
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { EventBus, type AgentEvent } from '../../../src/core/agent/events';
import { runTurn, type TurnOutcome } from '../../../src/core/agent/turnRunner';
import { ApprovalGate } from '../../../src/core/approval/gate';
import { ContextTracker } from '../../../src/core/workingContext/tracker';
import type { ChatMessage } from '../../../src/core/messages';
import { composeSystemPrompt } from '../../../src/core/prompt/systemPromptBuilder';
import { createTurnHooks, type TurnHooksBundle, type TurnHooksOptions } from '../../../src/core/resilience/turnHooks';
import { registerBuiltinTools } from '../../../src/core/tools/builtin/index';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { WorkspaceRoots } from '../../../src/core/workspace/workspaceRoots';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { NodeProcessRunner } from '../../../src/node/nodeProcessRunner';
import type { ScriptedProvider } from './scriptedProvider';

export type HarnessOptions = Partial<Omit<TurnHooksOptions, 'provider' | 'registry' | 'bus'>> & {
  /** Leave the text-protocol part out of the system prompt (to test that callModel adds it). */
  plainPrompt?: boolean;
};

export class TurnHarness {
  readonly events: AgentEvent[] = [];
  readonly history: ChatMessage[] = [];
  readonly bus = new EventBus();
  readonly registry = new ToolRegistry();
  readonly fs = new NodeFileSystem();
  readonly tracker = new ContextTracker();
  readonly hooks: TurnHooksBundle;

  private constructor(
    readonly root: string,
    readonly provider: ScriptedProvider,
    private readonly options: HarnessOptions,
  ) {
    registerBuiltinTools(this.registry, { exclude: ['run_command'] });
    this.bus.on((e) => this.events.push(e));
    this.hooks = createTurnHooks({
      provider,
      model: options.model ?? 'scripted-model',
      registry: this.registry,
      bus: this.bus,
      sleep: async () => {},
      openTodos: () => this.tracker.todos().filter((t) => t.status !== 'done').map((t) => t.text),
      ...options,
    });
  }

  static async create(provider: ScriptedProvider, options: HarnessOptions = {}): Promise<TurnHarness> {
    const root = await realpath(await mkdtemp(path.join(tmpdir(), 'lh-hooks-')));
    return new TurnHarness(root, provider, options);
  }

  async run(text: string): Promise<TurnOutcome> {
    const signal = new AbortController().signal;
    const mode = await this.hooks.resolveToolProtocol(signal);
    const tools = this.registry.definitions();
    return runTurn(
      this.history,
      text,
      {
        provider: this.provider,
        model: 'scripted-model',
        registry: this.registry,
        gate: new ApprovalGate({ policy: { autoApprove: ['read', 'write'], rules: [] } }),
        bus: this.bus,
        toolContext: { roots: new WorkspaceRoots([{ name: 'ws', path: this.root }], this.fs), fs: this.fs, runner: new NodeProcessRunner(), tracker: this.tracker },
        buildSystemPrompt: () =>
          composeSystemPrompt({
            system: { os: 'Linux', shell: 'bash', workspaceFolders: [this.root] },
            loopBreakingTools: true,
            ...(!this.options.plainPrompt && { toolProtocol: mode, tools }),
          }).text,
        hooks: this.hooks,
        ...(this.options.allowedRisks && { allowedRisks: this.options.allowedRisks }),
      },
      signal,
    );
  }

  read(rel: string): Promise<string> {
    return readFile(path.join(this.root, rel), 'utf8');
  }

  notices(): string[] {
    return this.events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
  }

  shownText(): string {
    return this.events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
  }

  toolResults(): Array<{ name: string; ok: boolean; content: string }> {
    return this.events.flatMap((e) => (e.type === 'tool_result' ? [{ name: e.name, ok: e.ok, content: e.content }] : []));
  }

  async dispose(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}

/** A `<tool>` block as a model without native tool calling writes it. */
export function block(tool: string, args: Record<string, unknown>): string {
  return `<tool>${JSON.stringify({ server_name: 'local', tool_name: tool, arguments: args })}</tool>`;
}
