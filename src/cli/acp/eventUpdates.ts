// What the agent does, as ACP `session/update` notifications: text and thoughts as chunks, each tool call with its
// kind, status and the files it touches, the todo list and the orchestrator's plan as plan entries.
import path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../../core/agent/events';
import type { Todo } from '../../core/workingContext/tracker';

const KINDS: Record<string, acp.ToolKind> = {
  read_file: 'read',
  list_directory: 'read',
  todo_read: 'read',
  search_files: 'search',
  write_file: 'edit',
  edit_file: 'edit',
  todo_write: 'think',
  move_file: 'move',
  run_command: 'execute',
  task_completion: 'other',
  ask_question: 'other',
};

export function toolKind(name: string): acp.ToolKind {
  return KINDS[name] ?? (name.includes('__') ? 'other' : 'other');
}

/** The files a call names, absolute (ACP paths are absolute), so the client can follow along. */
export function toolLocations(args: unknown, workspace: string): acp.ToolCallLocation[] {
  if (!args || typeof args !== 'object') return [];
  const a = args as Record<string, unknown>;
  const line = typeof a.line === 'number' ? a.line : typeof a.startLine === 'number' ? a.startLine : typeof a.start_line === 'number' ? a.start_line : undefined;
  const out: acp.ToolCallLocation[] = [];
  for (const key of ['path', 'source', 'destination', 'file']) {
    const v = a[key];
    if (typeof v === 'string' && v.length > 0) out.push({ path: path.resolve(workspace, v), ...(line !== undefined && key === 'path' && { line }) });
  }
  return out;
}

function toolTitle(name: string, args: unknown): string {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  const target = [a.command, a.path, a.source, a.pattern, a.query].find((v) => typeof v === 'string') as string | undefined;
  return target ? `${name}: ${target.length > 80 ? target.slice(0, 77) + '…' : target}` : name;
}

function todoEntries(todos: readonly Todo[]): acp.PlanEntry[] {
  return todos.map((t) => ({ content: t.text, priority: 'medium', status: t.status === 'done' ? 'completed' : t.status }));
}

/** Maps one turn's events; keeps the orchestrator's plan so step events can update its entries. */
export class EventUpdates {
  private planSteps: Array<{ id: string; goal: string; status: acp.PlanEntryStatus }> = [];
  private readonly calls = new Map<string, { name: string; args: unknown; status: acp.ToolCallStatus }>();

  constructor(
    private readonly workspace: string,
    private readonly send: (update: acp.SessionUpdate) => void,
    /** The client declared `session.notices`; otherwise notices go to the log (stderr), not into the answer. */
    private readonly notices: { supported: boolean; log(message: string): void },
  ) {}

  /** The most recent tool call asking for approval (the gate asks right after it). */
  lastApproval: { id: string; name: string; title: string; args: unknown } | undefined;

  handle(e: AgentEvent): void {
    switch (e.type) {
      case 'text':
        if (e.text) this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: e.text } });
        return;
      case 'thinking':
        if (e.text) this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: e.text } });
        return;
      case 'tool_call':
        this.calls.set(e.id, { name: e.name, args: e.arguments, status: 'pending' });
        this.send({
          sessionUpdate: 'tool_call',
          toolCallId: e.id,
          title: toolTitle(e.name, e.arguments),
          kind: toolKind(e.name),
          status: 'pending',
          locations: toolLocations(e.arguments, this.workspace),
          rawInput: e.arguments,
        });
        return;
      case 'approval_request':
        this.lastApproval = { id: e.id, name: e.name, title: e.title, args: this.calls.get(e.id)?.args };
        return;
      case 'approval_result':
        if (e.approved) this.setRunning(e.id);
        return;
      case 'tool_progress':
        this.send({ sessionUpdate: 'tool_call_update', toolCallId: e.id, status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text: e.message } }] });
        return;
      case 'tool_result': {
        const done = this.calls.get(e.id);
        if (done) done.status = e.ok ? 'completed' : 'failed';
        this.send({
          sessionUpdate: 'tool_call_update',
          toolCallId: e.id,
          status: e.ok ? 'completed' : 'failed',
          content: [{ type: 'content', content: { type: 'text', text: e.display ?? e.content } }],
          rawOutput: { ok: e.ok, ...(e.denied && { denied: true }), durationMs: e.durationMs },
        });
        const call = this.calls.get(e.id);
        if (e.ok && call?.name === 'todo_write') {
          const todos = (call.args as { todos?: Todo[] } | undefined)?.todos;
          if (Array.isArray(todos)) this.send({ sessionUpdate: 'plan', entries: todoEntries(todos.map((t) => ({ text: String(t.text).trim(), status: t.status }))) });
        }
        return;
      }
      case 'plan':
        this.planSteps = e.steps.map((s) => ({ id: s.id, goal: s.goal, status: 'pending' }));
        this.sendPlan();
        return;
      case 'step_start':
        this.setStep(e.stepId, 'in_progress');
        return;
      case 'step_end':
        this.setStep(e.stepId, 'completed');
        return;
      case 'turn_end':
        // The model ended with task_completion or ask_question: its summary or question is the answer.
        if ((e.reason === 'task_completion' || e.reason === 'ask_question') && e.result) {
          this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: e.result } });
        }
        return;
      case 'notice':
        if (this.notices.supported) this.send({ sessionUpdate: 'notice', severity: 'info', title: e.message });
        else this.notices.log(e.message);
        return;
      case 'error':
        // In the conversation: the user must see why the turn did not finish.
        this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\nError: ${e.message}\n` } });
        return;
      default:
        return;
    }
  }

  /**
   * The gate let the newest waiting call run (policy or the user): it is in progress now. The gate decides one
   * call at a time, right after that call was announced.
   */
  started(): void {
    const waiting = [...this.calls.entries()].reverse().find(([, c]) => c.status === 'pending');
    if (waiting) this.setRunning(waiting[0]);
  }

  private setRunning(id: string): void {
    const call = this.calls.get(id);
    if (!call || call.status !== 'pending') return;
    call.status = 'in_progress';
    this.send({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress' });
  }

  private setStep(id: string, status: acp.PlanEntryStatus): void {
    const step = this.planSteps.find((s) => s.id === id);
    if (!step) return;
    step.status = status;
    this.sendPlan();
  }

  private sendPlan(): void {
    this.send({ sessionUpdate: 'plan', entries: this.planSteps.map((s) => ({ content: s.goal, priority: 'medium', status: s.status })) });
  }
}
