// What the approval dialog says and what each answer means. Pure, so the mapping is unit-tested;
// modalAsker.ts shows it with vscode.window.showWarningMessage.
import type { ApprovalDecision, ApprovalRequest } from '../../core/approval/gate';

export const ALLOW = 'Allow' as const;
export const ALLOW_SESSION = 'Allow for this session' as const;
export const ALLOW_WORKSPACE = 'Always allow in this workspace' as const;
export const DENY = 'Deny' as const;
export const SHOW_DIFF = 'Show diff' as const;

export type DialogButton = typeof ALLOW | typeof ALLOW_SESSION | typeof ALLOW_WORKSPACE | typeof DENY | typeof SHOW_DIFF;

export interface ApprovalDialog {
  message: string;
  detail: string;
  buttons: DialogButton[];
}

/** Long details make the modal unusable; the diff editor shows the whole change. */
export const MAX_DETAIL_CHARS = 1800;

export function buildApprovalDialog(request: ApprovalRequest): ApprovalDialog {
  const { description } = request;
  const canDiff = description.fileChange !== undefined;
  const lines: string[] = [];
  const body = description.detail.trim();
  // The exact command line must be in the dialog; most tools already put it in their detail.
  if (description.command !== undefined && !body.includes(description.command)) lines.push(`Command: ${description.command}`);
  if (body) lines.push(body);
  lines.push(scopeHint(request));
  let detail = lines.join('\n\n');
  if (detail.length > MAX_DETAIL_CHARS) {
    const cut = detail.length - MAX_DETAIL_CHARS;
    detail = `${detail.slice(0, MAX_DETAIL_CHARS)}\n… (${cut} more characters${canDiff ? '; choose "Show diff" to see the whole change' : ''})`;
  }
  return {
    message: `Local Harness wants to use ${request.toolName}: ${description.title}`,
    detail,
    buttons: [ALLOW, ALLOW_SESSION, ALLOW_WORKSPACE, DENY, ...(canDiff ? [SHOW_DIFF] : ([] as DialogButton[]))],
  };
}

/** Says what the two "remember" answers would cover, so nobody grants more than they think. */
function scopeHint(request: ApprovalRequest): string {
  const command = request.description.command;
  return command !== undefined
    ? `"${ALLOW_SESSION}" and "${ALLOW_WORKSPACE}" cover later commands that start with: ${command}`
    : `"${ALLOW_SESSION}" and "${ALLOW_WORKSPACE}" cover every later ${request.toolName} call.`;
}

export type DialogOutcome = { kind: 'decision'; decision: ApprovalDecision } | { kind: 'showDiff' };

/** Maps the clicked button to a decision. Escape, Cancel or anything unknown denies. */
export function outcomeForAnswer(answer: string | undefined): DialogOutcome {
  switch (answer) {
    case ALLOW:
      return { kind: 'decision', decision: { approved: true, scope: 'once' } };
    case ALLOW_SESSION:
      return { kind: 'decision', decision: { approved: true, scope: 'session' } };
    case ALLOW_WORKSPACE:
      return { kind: 'decision', decision: { approved: true, scope: 'workspace' } };
    case SHOW_DIFF:
      return { kind: 'showDiff' };
    case DENY:
      return { kind: 'decision', decision: { approved: false, reason: 'denied by the user' } };
    default:
      return { kind: 'decision', decision: { approved: false, reason: 'the user dismissed the approval dialog' } };
  }
}
