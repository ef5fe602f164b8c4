// Approvals through the client's `session/request_permission`, with the editor's four choices. Anything but a
// clear choice of one of ours is a no: an error, a cancelled request, an unknown option. The gate adds the
// deadline (no answer in time is a no) and the cancel of the turn.
import type * as acp from '@agentclientprotocol/sdk';
import type { ApprovalAsker, ApprovalDecision } from '../../core/approval/gate';
import { toolKind, toolLocations } from './eventUpdates';

export const PERMISSION_OPTIONS: acp.PermissionOption[] = [
  { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'session', name: 'Allow for this session', kind: 'allow_always' },
  { optionId: 'workspace', name: 'Always allow in this workspace', kind: 'allow_always' },
  { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
];

export interface PermissionClient {
  request(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
}

/** `pending()` names the tool call being approved (the bus announced it just before the gate asks). */
export function permissionAsker(
  sessionId: string,
  workspace: string,
  client: PermissionClient,
  pending: () => { id: string; title: string; args: unknown; name: string } | undefined,
): ApprovalAsker {
  return async (request, signal): Promise<ApprovalDecision> => {
    const call = pending();
    const options = request.description.sensitive || request.description.unsandboxed
      ? PERMISSION_OPTIONS.filter((o) => o.optionId === 'once' || o.optionId === 'deny') // asked every time
      : PERMISSION_OPTIONS;
    const response = await client.request(
      {
        sessionId,
        toolCall: {
          toolCallId: call?.id ?? `approval-${Date.now()}`,
          title: request.description.title,
          kind: toolKind(request.toolName),
          status: 'pending',
          locations: toolLocations(request.args, workspace),
          rawInput: request.args,
          content: [{ type: 'content', content: { type: 'text', text: request.description.detail } }],
        },
        options,
      },
      signal,
    );
    const outcome = response?.outcome;
    if (!outcome || outcome.outcome !== 'selected') return { approved: false, reason: 'the request for permission was cancelled' };
    switch (outcome.optionId) {
      case 'once':
      case 'session':
      case 'workspace':
        if (!options.some((o) => o.optionId === outcome.optionId)) break;
        return { approved: true, scope: outcome.optionId };
      case 'deny':
        return { approved: false, reason: 'denied by the user' };
    }
    return { approved: false, reason: `the client answered with an option that was not offered ("${String(outcome.optionId)}")` };
  };
}
