// The editor's face of checkpoints: "Restore to here" on a user message (a modal lists the files first), Undo
// Restore, and the review of the files the last turn changed (Keep / Undo per file and for all, each file's diff in
// VS Code's diff editor, the "before" side served from the session database by a virtual document provider).
import * as vscode from 'vscode';
import type { ChatStateStore } from '../../editor/chat/chatStateStore';
import type { Logger } from '../../editor/log/logger';
import { errorMessage } from '../../editor/log/logger';
import type { FileSystemPort } from '../../core/ports';
import type { FileState } from '../../core/checkpoints/history';
import type { RestorePlan } from '../../core/checkpoints/rewind';
import { TurnReviewService } from '../../editor/checkpoints/turnReview';
import type { EditorSessionService } from '../../editor/history/sessionService';
import type { WebviewToHost } from '../../shared/protocol';
import type { ChatViewProvider } from '../chat/chatViewProvider';
import { registerLoggedCommands } from '../common/loggedCommands';
import { workspaceRoots } from '../workspaceInfo';
import { refusedText, type RefusedFile } from '../../core/checkpoints/restoreConfinement';

export const BEFORE_SCHEME = 'localharness-before';

export interface CheckpointUiDeps {
  service: EditorSessionService;
  store: ChatStateStore;
  chatView: ChatViewProvider;
  log: Logger;
  fs: FileSystemPort;
  busy: () => boolean;
  /** Reloads a stored session into the panel and the model (after a restore changed it). */
  reopen: (id: string) => Promise<void>;
}

export function registerCheckpoints(deps: CheckpointUiDeps): vscode.Disposable[] {
  const review = new TurnReviewService({
    sessions: deps.service,
    store: deps.store,
    fs: deps.fs,
    roots: () => workspaceRoots(deps.fs),
    label: (p) => vscode.workspace.asRelativePath(p),
  });
  const ui = new CheckpointUi(deps, review);
  deps.chatView.checkpointsHandler = (msg) => ui.onPanelMessage(msg);
  // The turn's results are stored when its recording ends, just after turn_end: the review is read then.
  const off = deps.store.subscribe((change) => {
    if (change.event?.type === 'turn_end') setTimeout(() => void review.afterTurn().catch((e) => deps.log.warn(`checkpoints: ${errorMessage(e)}`)), 0);
  });
  return [
    vscode.workspace.registerTextDocumentContentProvider(BEFORE_SCHEME, { provideTextDocumentContent: (uri) => ui.beforeText(uri) }),
    ...registerLoggedCommands({ 'localharness.undoRestore': () => ui.undoRestore() }, deps.log),
    { dispose: () => off() },
  ];
}

class CheckpointUi {
  constructor(
    private readonly deps: CheckpointUiDeps,
    private readonly review: TurnReviewService,
  ) {}

  async onPanelMessage(msg: Extract<WebviewToHost, { type: 'restoreTo' | 'reviewAction' }>): Promise<void> {
    if (msg.type === 'restoreTo') return this.restoreTo(msg.messageId);
    if (msg.action === 'keep') return this.review.keep(msg.path);
    if (msg.action === 'open' && msg.path) return this.openDiff(msg.path);
    if (msg.action === 'undo') return this.undoFiles(msg.path);
  }

  async restoreTo(messageId: number): Promise<void> {
    if (this.deps.busy()) {
      void vscode.window.showWarningMessage('Local Harness: wait for the turn to finish (or press Stop) before restoring.');
      return;
    }
    let plan: RestorePlan | undefined;
    try {
      plan = await this.review.planRestore(messageId);
    } catch (err) {
      void vscode.window.showErrorMessage(`Local Harness: cannot restore: ${errorMessage(err)}`);
      return;
    }
    const sessionId = this.review.sessionId;
    if (!plan || !sessionId) {
      void vscode.window.showInformationMessage('Local Harness: this chat is not saved, so it cannot be restored.');
      return;
    }
    const changing = plan.files.filter((f) => f.action !== 'none');
    const conflicts = changing.filter((f) => f.conflict);
    const lines = changing.map((f) => `${f.action === 'delete' ? 'Delete' : 'Restore'} ${this.label(f.path)}${f.conflict ? '  (changed since the agent edited it)' : ''}`);
    const detail = [
      changing.length === 0 ? 'No files need to change.' : `Files (${changing.length}):`,
      ...lines.slice(0, 30),
      ...(lines.length > 30 ? [`…and ${lines.length - 30} more`] : []),
      ...refusedLines(plan.refused),
      '',
      'The conversation from this message on is removed. "Undo Restore" brings the files and the conversation back.',
    ].join('\n');
    const buttons = conflicts.length > 0 ? ['Restore All', 'Restore, Keep My Changes'] : ['Restore'];
    const choice = await vscode.window.showWarningMessage('Restore the workspace and the conversation to before this message?', { modal: true, detail }, ...buttons);
    if (!choice) return;
    const outcome = await this.review.applyRestore(plan, choice !== 'Restore, Keep My Changes');
    const text = this.deps.store.state.items.find((i) => i.kind === 'user' && i.messageId === messageId);
    await this.deps.reopen(sessionId);
    // As in Claude Code: the message comes back into the box, to edit and send again.
    if (text?.kind === 'user') this.deps.chatView.prefill(text.text);
    const kept = outcome.skipped.length > 0 ? ` Kept your changes to ${outcome.skipped.map((p) => this.label(p)).join(', ')}.` : '';
    const refused = outcome.refused.length > 0 ? ` ${refusedText(outcome.refused)}` : '';
    const summary = `Restored to before the message: ${outcome.restored.length} file(s) put back.${kept}${refused}`;
    this.deps.store.notice(summary);
    this.deps.log.info(`checkpoints: ${summary} (${outcome.restored.join(', ')})`);
    const undo = await vscode.window.showInformationMessage(`Local Harness: ${summary}`, 'Undo Restore');
    if (undo) await this.undoRestore();
  }

  async undoRestore(): Promise<void> {
    if (this.deps.busy()) {
      void vscode.window.showWarningMessage('Local Harness: wait for the turn to finish (or press Stop) before undoing the restore.');
      return;
    }
    const plan = await this.review.planUndoRestore();
    const sessionId = this.review.sessionId;
    if (typeof plan === 'string' || !sessionId) {
      void vscode.window.showInformationMessage(`Local Harness: ${typeof plan === 'string' ? plan : 'no session'}.`);
      return;
    }
    const conflicts = plan.files.filter((f) => f.conflict);
    let overwrite = false;
    if (conflicts.length > 0) {
      const choice = await vscode.window.showWarningMessage(
        'Some files changed since the restore. Overwrite them too?',
        { modal: true, detail: conflicts.map((f) => this.label(f.path)).join('\n') },
        'Overwrite',
        'Keep My Changes',
      );
      if (!choice) return;
      overwrite = choice === 'Overwrite';
    }
    const outcome = await this.review.applyUndoRestore(plan, overwrite);
    await this.deps.reopen(sessionId);
    const refused = outcome.refused.length > 0 ? ` ${refusedText(outcome.refused)}` : '';
    const summary = `Undid the restore: the conversation and ${outcome.restored.length} file(s) are back.${refused}`;
    this.deps.store.notice(summary);
    this.deps.log.info(`checkpoints: ${summary}`);
  }

  private async undoFiles(path: string | undefined): Promise<void> {
    const plan = await this.review.planUndo(path);
    if (plan.refused.length > 0) {
      const text = `Undo: ${refusedText(plan.refused)}`;
      this.deps.log.warn(`checkpoints: ${text}`);
      void vscode.window.showWarningMessage(`Local Harness: ${text}`);
    }
    const conflicts = plan.files.filter((f) => f.conflict);
    let overwrite = false;
    if (conflicts.length > 0) {
      const choice = await vscode.window.showWarningMessage(
        `${conflicts.length === 1 ? 'This file' : 'These files'} changed since the agent edited ${conflicts.length === 1 ? 'it' : 'them'}. Undo anyway?`,
        { modal: true, detail: conflicts.map((f) => this.label(f.path)).join('\n') },
        'Undo Anyway',
      );
      overwrite = choice === 'Undo Anyway';
      if (!overwrite && plan.files.length === conflicts.length) return;
    }
    const undone = await this.review.applyUndo(plan, overwrite);
    this.deps.log.info(`checkpoints: undid the turn's change of ${undone.map((p) => this.label(p)).join(', ')}`);
  }

  private async openDiff(path: string): Promise<void> {
    const file = this.deps.store.state.review?.files.find((f) => f.path === path);
    if (!file) return;
    const before = vscode.Uri.from({ scheme: BEFORE_SCHEME, path, query: file.change === 'created' ? 'empty' : 'before' });
    const after = file.change === 'deleted' || file.state === 'undone' ? vscode.Uri.from({ scheme: BEFORE_SCHEME, path, query: 'empty' }) : vscode.Uri.file(path);
    await vscode.commands.executeCommand('vscode.diff', before, after, `${file.label} (before the turn ↔ now)`);
  }

  async beforeText(uri: vscode.Uri): Promise<string> {
    if (uri.query === 'empty') return '';
    return decode((await this.review.beforeOf(uri.path)) ?? null);
  }

  private label(path: string): string {
    return vscode.workspace.asRelativePath(path);
  }
}

/** The confirmation's list of stored paths a restore will not touch. */
function refusedLines(refused: readonly RefusedFile[]): string[] {
  if (refused.length === 0) return [];
  return ['', `Not restored, never written (${refused.length}):`, ...refused.slice(0, 10).map((r) => `${r.path}  (${r.reason})`), ...(refused.length > 10 ? [`…and ${refused.length - 10} more`] : [])];
}

/** Bytes for the diff: UTF-8 when they are, Latin-1 otherwise (the diff is for reading; restores use the bytes). */
function decode(state: FileState): string {
  if (state === null) return '';
  if (typeof state === 'string') return state;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(state);
  } catch {
    return new TextDecoder('latin1').decode(state);
  }
}
