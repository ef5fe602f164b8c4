// What the approval dialog says and what each answer means. Pure, so the mapping is unit-tested;
// modalAsker.ts shows it with vscode.window.showWarningMessage.
//
// VS Code's modal makes the FIRST button the default one (Enter). For actions that cannot be taken back (commands,
// changes to files that control the editor, the agent or the build) the first button never approves: Enter on a
// dialog that popped up while typing must not run anything.
import { rememberable, type ApprovalDecision, type ApprovalRequest } from '../../core/approval/gate';
import type { ApprovalDescription } from '../../core/tools/tool';
import { EXTRA_PATTERN_CONTROLS } from '../../core/workspace/sensitivePaths';

export const ALLOW = 'Allow' as const;
export const ALLOW_SESSION = 'Allow for this session' as const;
export const ALLOW_WORKSPACE = 'Always allow in this workspace' as const;
export const DENY = 'Deny' as const;
export const SHOW_DIFF = 'Show diff' as const;
/** A sandboxed command without network: this one run may use it. */
export const ALLOW_NETWORK = 'Allow with network (once)' as const;
/** A command that would run (or run again) without the sandbox: once, never remembered. */
export const RUN_UNSANDBOXED = 'Run once without the sandbox' as const;

export type DialogButton = typeof ALLOW | typeof ALLOW_SESSION | typeof ALLOW_WORKSPACE | typeof DENY | typeof SHOW_DIFF | typeof ALLOW_NETWORK | typeof RUN_UNSANDBOXED;

export interface ApprovalDialog {
  message: string;
  detail: string;
  buttons: DialogButton[];
  /** Enter (the first button) must not approve: a command, or a change to a sensitive file. */
  guarded: boolean;
}

/** A change to a file that controls the editor, the agent or the build (marked by the core; always asked). */
export interface SensitiveChange {
  paths: string[];
  /** One line per file, "path — what it controls" (core/approval/sensitiveWrites.ts). */
  reason: string;
}

export function sensitiveChangeOf(description: ApprovalDescription): SensitiveChange | undefined {
  const raw = description.sensitive;
  if (!raw) return undefined;
  // A mark without details still means "sensitive": show what we know rather than nothing.
  return { paths: (raw.paths ?? []).filter((p) => typeof p === 'string' && p !== ''), reason: typeof raw.reason === 'string' ? raw.reason.trim() : '' };
}

/** Long details make the modal unusable; the diff editor shows the whole change. */
export const MAX_DETAIL_CHARS = 1800;

export function buildApprovalDialog(request: ApprovalRequest): ApprovalDialog {
  const { description } = request;
  const canDiff = description.fileChange !== undefined;
  const sensitive = sensitiveChangeOf(description);
  const lines: string[] = [];
  const body = description.detail.trim();
  if (sensitive) lines.push(`Local Harness wants to use ${request.toolName}: ${description.title}`);
  // The exact command line must be in the dialog; most tools already put it in their detail.
  if (description.command !== undefined && !body.includes(description.command)) lines.push(`Command: ${description.command}`);
  if (body) lines.push(body);
  lines.push(sensitive ? sensitiveHint(request) : description.unsandboxed ? unsandboxedHint() : scopeHint(request));
  let detail = lines.join('\n\n');
  if (detail.length > MAX_DETAIL_CHARS) {
    const cut = detail.length - MAX_DETAIL_CHARS;
    detail = `${detail.slice(0, MAX_DETAIL_CHARS)}\n… (${cut} more characters${canDiff ? '; choose "Show diff" to see the whole change' : ''})`;
  }
  const diff: DialogButton[] = canDiff ? [SHOW_DIFF] : [];
  if (description.unsandboxed && !sensitive) {
    // Asked every time and only once: the command runs with the user's full rights.
    const message = `Local Harness wants to run a command without the sandbox: ${description.title}`;
    return { message, detail, buttons: [DENY, RUN_UNSANDBOXED], guarded: true };
  }
  if (sensitive) {
    // Asked every time: no "remember" answers, and the default button shows the change instead of approving it.
    return { message: sensitiveMessage(sensitive, description), detail, buttons: canDiff ? [SHOW_DIFF, ALLOW, DENY] : [DENY, ALLOW], guarded: true };
  }
  const message = `Local Harness wants to use ${request.toolName}: ${description.title}`;
  const network: DialogButton[] = description.networkOffer ? [ALLOW_NETWORK] : [];
  // A chained or substituted command can only be allowed once: no rule could cover it (scopeHint says why).
  const remember: DialogButton[] = rememberable(request) === true ? [ALLOW_SESSION, ALLOW_WORKSPACE] : [];
  if (isIrreversible(request)) return { message, detail, buttons: [DENY, ALLOW, ...network, ...remember, ...diff], guarded: true };
  return { message, detail, buttons: [ALLOW, ALLOW_SESSION, ALLOW_WORKSPACE, DENY, ...diff], guarded: false };
}

/** A command (or a tool that runs one) cannot be undone from a checkpoint. */
function isIrreversible(request: ApprovalRequest): boolean {
  return request.description.command !== undefined || request.risk === 'execute';
}

/** "Warning: this changes .vscode/settings.json, which controls …" (the detail lists every file when there are several). */
function sensitiveMessage(sensitive: SensitiveChange, description: ApprovalDescription): string {
  const paths = sensitive.paths.length ? sensitive.paths : [description.fileChange?.path ?? 'a sensitive file'];
  if (paths.length > 1) return `Warning: this changes ${paths.length} sensitive files (${paths.join(', ')}), which control what the editor, the build or the agent runs.`;
  const path = paths[0]!;
  const firstLine = sensitive.reason.split('\n')[0]!.trim();
  const prefix = `${path} \u2014 `;
  const controls = (firstLine.startsWith(prefix) ? firstLine.slice(prefix.length) : firstLine).replace(/[.\s]+$/, '');
  if (controls === EXTRA_PATTERN_CONTROLS) return `Warning: this changes ${path}, a file you listed as sensitive in localharness.approval.sensitivePatterns.`;
  return controls
    ? `Warning: this changes ${path}, which controls ${controls}.`
    : `Warning: this changes ${path}, a file that controls what the editor, the build or the agent runs.`;
}

function sensitiveHint(request: ApprovalRequest): string {
  return `Changes to files like this are asked about every time, even if you allowed ${request.toolName} for this session or workspace, so only "${ALLOW}" (this once) and "${DENY}" are offered. Allow it only if you asked for this change.`;
}

/**
 * The buttons of one showing of the dialog. Once "Show diff" is no longer offered, a guarded dialog puts Deny
 * first so Enter still does not approve.
 */
export function dialogButtons(dialog: ApprovalDialog, offerDiff: boolean): DialogButton[] {
  if (offerDiff) return dialog.buttons;
  const buttons = dialog.buttons.filter((b) => b !== SHOW_DIFF);
  return dialog.guarded ? [DENY, ...buttons.filter((b) => b !== DENY)] : buttons;
}

function unsandboxedHint(): string {
  return `This is asked every time; no session or workspace rule covers it. "${RUN_UNSANDBOXED}" lets only this run out of the sandbox.`;
}

/** Says what the two "remember" answers would cover, so nobody grants more than they think. */
function scopeHint(request: ApprovalRequest): string {
  const command = request.description.command;
  const why = rememberable(request);
  if (why !== true) return `Only "${ALLOW}" (this once) is offered: ${why}. A rule covers one plain command; this line runs more than one, or more than it shows.`;
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
    case ALLOW_NETWORK:
      return { kind: 'decision', decision: { approved: true, scope: 'once', network: true } };
    case RUN_UNSANDBOXED:
      return { kind: 'decision', decision: { approved: true, scope: 'once' } };
    case SHOW_DIFF:
      return { kind: 'showDiff' };
    case DENY:
      return { kind: 'decision', decision: { approved: false, reason: 'denied by the user' } };
    default:
      return { kind: 'decision', decision: { approved: false, reason: 'the user dismissed the approval dialog' } };
  }
}
