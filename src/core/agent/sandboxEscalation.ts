// What an approval grants a sandboxed command, and the one way past the sandbox: when it blocked a command, the
// user may run it once without it, in a dialog that says exactly that. Nobody to ask means no way past.
import type { ApprovalDecision, ApprovalGate } from '../approval/gate';
import type { SensitiveInfo } from '../approval/sensitiveWrites';
import type { TurnDenials } from '../approval/turnDenials';
import type { SandboxGrant } from '../sandbox/types';
import type { ApprovalDescription, Tool, ToolContext, ToolResult } from '../tools/tool';
import type { EventBus } from './events';

/** Network once ("Allow with network") and the sensitive files the user (or --allow-sensitive) let it write. */
export function grantOf(decision: ApprovalDecision, sensitive: SensitiveInfo | undefined): SandboxGrant | undefined {
  if (!decision.approved) return undefined;
  const writable = sensitive?.abs ?? [];
  if (!decision.network && writable.length === 0) return undefined;
  return { ...(decision.network && { network: true }), ...(writable.length > 0 && { writable }) };
}

export interface EscalationInput {
  callId: string;
  tool: Tool;
  args: unknown;
  ctx: ToolContext;
  /** The sandboxed run's result, with `escalate` set. */
  result: ToolResult;
  gate: ApprovalGate;
  bus: EventBus;
  denials?: TurnDenials;
  signal: AbortSignal;
}

/** The denial memory's name for "this call without the sandbox", apart from the call itself. */
const UNCONFINED = ' (without the sandbox)';

export async function offerUnconfinedRun(input: EscalationInput): Promise<ToolResult> {
  const { tool, args, ctx, result, gate, bus, signal } = input;
  const reason = result.escalate!.reason;
  const off = ctx.sandbox?.hints.off;
  if (!gate.canAsk || signal.aborted) return off ? { ...result, content: `${result.content}\n[The user can run such commands without the sandbox: ${off}.]` } : result;
  if (input.denials?.refusal(tool.name + UNCONFINED, args, [])) {
    return { ...result, content: `${result.content}\n[The user already chose not to run this without the sandbox in this turn.]` };
  }
  const command = (args as { command?: unknown } | null)?.command;
  const shown = typeof command === 'string' ? command : tool.name;
  const description: ApprovalDescription = {
    title: `Run \`${shown.split('\n')[0]}\` again without the sandbox`,
    detail:
      `The sandbox blocked this command: ${reason}.\n\n` +
      'Run it once more without the sandbox? It starts again from the beginning with your full rights: it can change any file you can change, outside the workspace too, and use the network. What it already did inside the workspace stays done.\n\n' +
      shown,
    ...(typeof command === 'string' && { command }),
    unsandboxed: { reason },
  };
  const request = { toolName: tool.name, risk: tool.risk, args, description };
  bus.emit({ type: 'approval_request', id: input.callId, name: tool.name, risk: tool.risk, title: description.title, detail: description.detail });
  const decision = await gate.check(request, signal);
  bus.emit({
    type: 'approval_result',
    id: input.callId,
    name: tool.name,
    approved: decision.approved,
    // The command itself did run (in the sandbox): what was refused is running it again outside.
    ...(decision.approved ? { scope: decision.scope } : { reason: `not run again without the sandbox (${decision.reason})` }),
  });
  if (!decision.approved) {
    input.denials?.record(tool.name + UNCONFINED, args, []);
    return { ...result, content: `${result.content}\n[The user chose not to run it without the sandbox (${decision.reason}).]` };
  }
  if (signal.aborted) return result;
  const again = await tool.invoke(args as never, { ...ctx, grant: { unconfined: true } });
  return { ...again, content: `[Ran again without the sandbox, as the user allowed once.]\n${again.content}` };
}
