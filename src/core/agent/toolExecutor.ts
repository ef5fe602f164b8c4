// Runs one tool call: validate, ask approval when policy says so, invoke with the turn's signal, cap the result.
// Before the gate: a call the user already denied in this turn is refused without asking, and a call that
// writes a sensitive file is marked so the gate always asks.
import type { ImagePart } from '../images/imagePart';
import type { ToolCall } from '../messages';
import type { ApprovalGate } from '../approval/gate';
import { findSensitive, withSensitiveWarning } from '../approval/sensitiveWrites';
import type { TurnDenials } from '../approval/turnDenials';
import { writeTargetsOf } from '../approval/writeTargets';
import type { ToolRegistry } from '../tools/registry';
import type { RiskLevel, ToolContext } from '../tools/tool';
import type { EventBus } from './events';
import { truncateMiddle } from './truncate';
import { grantOf, offerUnconfinedRun } from './sandboxEscalation';
import { errorMessage } from '../../shared/format';

export interface ToolExecutionEnv {
  registry: ToolRegistry;
  gate: ApprovalGate;
  bus: EventBus;
  context: Omit<ToolContext, 'signal' | 'onProgress'>;
  allowedRisks?: readonly RiskLevel[];
  maxResultChars: number;
  now: () => number;
  /** What was denied in this turn; the turn runner makes a fresh one per turn. Without it nothing is remembered. */
  denials?: TurnDenials;
  /** The turn's mode refuses this call (Plan: no writes or commands; Ask: nothing): what the model reads. */
  refuse?: (name: string) => string | undefined;
}

export interface ToolExecution {
  call: ToolCall;
  ok: boolean;
  /** What the model reads. */
  content: string;
  denied: boolean;
  loopBreaking: boolean;
  /** Parsed arguments when valid. */
  args?: unknown;
  /** Images the tool returned for the model (read_file of an image). */
  images?: ImagePart[];
}

export async function executeToolCall(call: ToolCall, env: ToolExecutionEnv, signal: AbortSignal): Promise<ToolExecution> {
  const started = env.now();
  const { bus } = env;
  const parsed = env.registry.parse(call, env.allowedRisks);
  bus.emit({ type: 'tool_call', id: call.id, name: call.name, arguments: parsed.ok ? parsed.args : call.arguments });

  const finish = (ok: boolean, content: string, extra: { denied?: boolean; display?: string; loopBreaking?: boolean; args?: unknown; images?: ImagePart[] } = {}): ToolExecution => {
    const capped = truncateMiddle(content, {
      maxChars: env.maxResultChars,
      hint: call.name === 'read_file' ? 'Call read_file with start_line/end_line to read the removed part.' : 'Narrow the request to see the removed part.',
    });
    bus.emit({
      type: 'tool_result',
      id: call.id,
      name: call.name,
      ok,
      content: capped,
      durationMs: env.now() - started,
      ...(extra.display !== undefined && { display: extra.display }),
      ...(extra.denied && { denied: true }),
    });
    return {
      call,
      ok,
      content: capped,
      denied: !!extra.denied,
      loopBreaking: !!extra.loopBreaking,
      ...(extra.args !== undefined && { args: extra.args }),
      ...(extra.images?.length && { images: extra.images }),
    };
  };

  // Before the tool's own checks: a refused call never reaches approval or the tool, whatever its arguments.
  const refused = env.refuse?.(call.name);
  if (refused) return finish(false, refused, { denied: true });
  if (!parsed.ok) return finish(false, `Error: ${parsed.error}`);
  const { tool, args } = parsed;
  const ctx: ToolContext = {
    ...env.context,
    signal,
    onProgress: (message) => bus.emit({ type: 'tool_progress', id: call.id, name: call.name, message }),
  };

  let description;
  let targets;
  try {
    description = await tool.describeForApproval(args as never, ctx);
    targets = await writeTargetsOf({ toolName: tool.name, risk: tool.risk, args, description }, ctx);
  } catch (err) {
    return finish(false, `Error: ${errorMessage(err)}`);
  }
  const refusal = env.denials?.refusal(tool.name, args, targets);
  if (refusal) {
    bus.emit({ type: 'approval_result', id: call.id, name: tool.name, approved: false, reason: refusal.reason });
    return finish(false, refusal.message, { denied: true });
  }
  const sensitive = findSensitive(targets, env.gate.sensitivePaths());
  if (sensitive) description = withSensitiveWarning(description, sensitive);
  const request = { toolName: tool.name, risk: tool.risk, args, description };
  const asked = env.gate.needsAsking(request);
  if (asked) {
    bus.emit({ type: 'approval_request', id: call.id, name: tool.name, risk: tool.risk, title: description.title, detail: description.detail });
  }
  const decision = await env.gate.check(request, signal);
  if (asked || !decision.approved) {
    bus.emit({
      type: 'approval_result',
      id: call.id,
      name: tool.name,
      approved: decision.approved,
      ...(decision.approved ? { scope: decision.scope } : { reason: decision.reason }),
    });
  }
  if (!decision.approved) {
    env.denials?.record(tool.name, args, targets);
    return finish(false, `The user denied this ${tool.name} call (${decision.reason}). Do not retry the same call; choose another approach or ask the user.`, { denied: true });
  }
  if (signal.aborted) return finish(false, 'Cancelled before the tool ran.');

  try {
    const grant = ctx.sandbox ? grantOf(decision, sensitive) : undefined;
    let result = await tool.invoke(args as never, grant ? { ...ctx, grant } : ctx);
    if (result.escalate) {
      result = await offerUnconfinedRun({ callId: call.id, tool, args, ctx, result, gate: env.gate, bus, signal, ...(env.denials && { denials: env.denials }) });
    }
    return finish(result.ok, result.content, {
      ...(result.display !== undefined && { display: result.display }),
      ...(result.images?.length && { images: result.images }),
      loopBreaking: !!tool.loopBreaking && result.ok,
      args,
    });
  } catch (err) {
    if (signal.aborted) return finish(false, 'Cancelled while the tool was running.');
    return finish(false, `Error: ${tool.name} failed: ${errorMessage(err)}`);
  }
}
