// The ApprovalAsker for the editor: a native modal warning dialog. "Show diff" opens the proposed change in a
// diff editor and asks again; Escape/Cancel denies; Enter (the first button) never approves a command or a
// sensitive change (dialog.ts). The gate adds timeout, cancellation and fail-closed handling.
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { ApprovalAsker, ApprovalDecision, ApprovalRequest } from '../../core/approval/gate';
import type { Logger } from '../../editor/log/logger';
import { buildApprovalDialog, dialogButtons, outcomeForAnswer } from '../../editor/approval/dialog';
import { PROPOSED_SCHEME, type ProposedContentProvider } from './proposedContent';

export interface ModalAskerDeps {
  proposals: ProposedContentProvider;
  log: Logger;
  /** Shows the dialog; injectable so the flow can be driven without a window. */
  show?: (message: string, detail: string, buttons: string[]) => Thenable<string | undefined>;
}

const MAX_DIFF_REOPENS = 5;

export function createModalApprovalAsker(deps: ModalAskerDeps): ApprovalAsker {
  const show =
    deps.show ?? ((message: string, detail: string, buttons: string[]) => vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons));
  return async (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> => {
    const dialog = buildApprovalDialog(request);
    let diffOpened = false;
    try {
      for (let round = 0; ; round++) {
        if (signal.aborted) return { approved: false, reason: 'the turn was cancelled' };
        // Once the diff has been opened a few times, stop offering it so the loop always ends.
        const buttons = dialogButtons(dialog, round < MAX_DIFF_REOPENS);
        const answer = await show(dialog.message, dialog.detail, buttons);
        if (signal.aborted) return { approved: false, reason: 'the turn was cancelled' };
        const outcome = outcomeForAnswer(answer);
        if (outcome.kind === 'decision') return outcome.decision;
        diffOpened = true;
        await openProposedDiff(deps, request).catch((err: unknown) => deps.log.error('could not open the diff', err));
      }
    } finally {
      // The proposal is stale once decided: close its diff so nobody mistakes it for the file.
      if (diffOpened) await closeProposedDiffs().catch((err: unknown) => deps.log.warn(`could not close the diff: ${(err as Error)?.message ?? err}`));
    }
  };
}

async function closeProposedDiffs(): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === PROPOSED_SCHEME);
  if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
}

async function openProposedDiff(deps: ModalAskerDeps, request: ApprovalRequest): Promise<void> {
  const change = request.description.fileChange;
  if (!change) return;
  const uris = deps.proposals.propose(change.path, change.before, change.after);
  const name = path.basename(change.path);
  const title = change.before === undefined ? `${name} (new file, proposed by Local Harness)` : `${name}: current ↔ proposed by Local Harness`;
  await vscode.commands.executeCommand('vscode.diff', uris.before, uris.after, title, { preview: true } satisfies vscode.TextDocumentShowOptions);
}
