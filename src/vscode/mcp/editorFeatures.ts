// What the editor lends MCP servers beyond tools: the workspace folders as roots, native forms for elicitation,
// and the chat's model for sampling (each request approved in a modal, rate-limited per server).
import * as vscode from 'vscode';
import type { McpClientFeatures } from '../../mcp/clientFeatures';
import { createElicitationPort } from './elicitationDialog';
import { rootsOf } from '../../editor/mcp/mcpRoots';
import { SAMPLING_PER_MINUTE_SETTING, samplingPerMinuteOf, TOOL_TIMEOUT_SETTING, toolTimeoutMsOf } from '../../editor/mcp/mcpSettings';
import { SamplingApprovals } from '../../editor/mcp/samplingApproval';
import { askSamplingInModal } from './samplingDialog';
import type { SamplingModelSource } from '../../editor/mcp/samplingModel';

export interface EditorFeaturesDeps {
  /** Without it, sampling is not offered to servers. */
  samplingModel?: SamplingModelSource;
  /** Appends to the server's own log channel. */
  log: (server: string, line: string) => void;
  /**
   * The running chat turn's signal. A server's form or sampling request made while a tool of that turn runs
   * ends when the user presses Stop: servers do not cancel what they asked when their tool call is cancelled.
   */
  turnSignal?: () => AbortSignal | undefined;
}

export function createEditorFeatures(deps: EditorFeaturesDeps): { features: McpClientFeatures; approvals: SamplingApprovals | undefined } {
  const features: McpClientFeatures = {
    roots: () => rootsOf((vscode.workspace.workspaceFolders ?? []).map((f) => ({ uri: f.uri.toString(), name: f.name })), vscode.workspace.isTrusted),
    elicit: withTurn(createElicitationPort(), deps.turnSignal),
  };
  const perMinute = samplingPerMinute();
  const source = deps.samplingModel;
  // 0 turns sampling off: servers are not told the client can sample, so they do not ask.
  if (!source || perMinute === 0) return { features, approvals: undefined };
  const approvals = new SamplingApprovals({ ask: askSamplingInModal, modelName: () => source.currentName(), log: deps.log });
  features.approveSampling = async (request) => {
    // The dialog cannot be closed from here: an answer given after Stop ended the turn that caused it runs nothing.
    const turn = deps.turnSignal?.();
    const live = turn && !turn.aborted ? turn : undefined;
    const allowed = await approvals.port(request);
    if (allowed && live?.aborted) {
      deps.log(request.server, 'sampling: allowed after the chat turn was stopped; not run');
      return false;
    }
    return allowed;
  };
  features.samplingPerMinute = perMinute;
  features.sample = withTurn(async (request, signal) => {
    const [{ provider, model }, { createSamplingResponder }] = await Promise.all([source.resolve(signal), import('../../mcp/samplingResponder')]);
    deps.log(request.server, `sampling: asking ${model} at ${provider.baseUrl}`);
    return createSamplingResponder({ provider, model })(request, signal);
  }, deps.turnSignal);
  return { features, approvals };
}

/** The port with its signal also ending when the running turn is stopped. */
function withTurn<R, T>(port: (request: R, signal: AbortSignal) => Promise<T>, turnSignal: (() => AbortSignal | undefined) | undefined): (request: R, signal: AbortSignal) => Promise<T> {
  return (request, signal) => {
    const turn = turnSignal?.();
    return port(request, turn && !turn.aborted ? AbortSignal.any([signal, turn]) : signal);
  };
}

export function samplingPerMinute(): number {
  return samplingPerMinuteOf(vscode.workspace.getConfiguration('localharness').get<unknown>(SAMPLING_PER_MINUTE_SETTING));
}

export function defaultToolTimeoutMs(): number | undefined {
  return toolTimeoutMsOf(vscode.workspace.getConfiguration('localharness').get<unknown>(TOOL_TIMEOUT_SETTING));
}
