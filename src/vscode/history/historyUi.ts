// The editor's face of durable sessions: the panel's History view (list, open, rename, delete, export), and the
// Show Sessions, Undo Last Agent Edit, Compress Context Now and Resume commands.
import os from 'node:os';
import * as vscode from 'vscode';
import type { HarnessController } from '../agent/harnessController';
import type { ChatStateStore } from '../../editor/chat/chatStateStore';
import type { ChatViewProvider } from '../chat/chatViewProvider';
import type { Logger } from '../../editor/log/logger';
import { errorMessage } from '../../editor/log/logger';
import type { FileSystemPort } from '../../core/ports';
import type { ExportFormat, SessionInfo } from '../../persistence/types';
import type { SessionAction, SessionEntry, WebviewToHost } from '../../shared/protocol';
import { marksFromStore } from '../../editor/history/compressionMarks';
import { READ_ONLY_NOTE, type EditorSessionService } from '../../editor/history/sessionService';
import { restoredContextTokens } from '../../core/compression/restoredUsage';
import { chatRequest } from '../../core/prompt/requestLayout';
import { savedRunOf } from '../../persistence/planRuns';
import { planRunNotes, resumeRunText } from '../../editor/orchestrator/orchestratorNotices';
import { refusedText } from '../../core/checkpoints/restoreConfinement';
import { workspaceRoots } from '../workspaceInfo';

export const RESUME_TEXT = 'Continue the interrupted task.';
export const INTERRUPTED_TEXT = 'This session was interrupted in the middle of a turn (the window closed or the extension stopped). Resume to let the model continue where it stopped.';

export interface HistoryUiDeps {
  service: EditorSessionService;
  controller: HarnessController;
  chatView: ChatViewProvider;
  store: ChatStateStore;
  log: Logger;
  /** Writes restored files (not checkpointed: an undo is not itself undoable). */
  fs: FileSystemPort;
}

export class HistoryUi {
  private historyOpen = false;

  constructor(private readonly deps: HistoryUiDeps) {
    deps.chatView.sessionsHandler = (msg) => this.onPanelMessage(msg);
  }

  /** "Show Sessions": open the panel's History view with the current list. */
  async show(): Promise<void> {
    await vscode.commands.executeCommand('localharness.chat.focus');
    this.historyOpen = true;
    await this.postList(true);
  }

  async open(id: string): Promise<void> {
    const { service, controller, store } = this.deps;
    if (controller.busy) {
      const choice = await vscode.window.showWarningMessage('A turn is running. Stop it and open the other session?', { modal: true }, 'Stop and Open');
      if (choice !== 'Stop and Open') return;
    }
    const started = performance.now();
    const opened = await service.open(id);
    const read = performance.now();
    await controller.restoreConversation(opened.history, opened.contextState);
    const turns = await service.checkpoints().then((c) => (c ? c.history.userMessages(id) : []), () => []);
    store.load(opened.originals, planRunNotes(opened.planRuns, opened.originals.length), new Set(turns.map((t) => t.id)));
    // No request was prepared yet: estimate until the next turn brings the server's count.
    store.dispatch({ type: 'usage', used: restoredContextTokens(opened.history, opened.contextState) });
    for (const mark of marksFromStore(opened.originals, opened.current)) store.dispatch(mark);
    const unfinished = service.unfinishedRun();
    if (unfinished) store.dispatch({ type: 'error', text: resumeRunText(unfinished), actions: ['resumeSession'] });
    else if (opened.interrupted) store.dispatch({ type: 'error', text: INTERRUPTED_TEXT, actions: ['resumeSession'] });
    if (service.readOnly) store.notice(READ_ONLY_NOTE);
    this.deps.log.info(
      `sessions: opened ${id} (${opened.originals.length} message(s)${opened.interrupted ? ', interrupted' : ''}) in ${Math.round(performance.now() - started)} ms (read ${Math.round(read - started)} ms)`,
    );
    await this.postList(false);
  }

  /** The Resume button of an interrupted session. */
  async resume(): Promise<void> {
    // A planned run continues at its first unfinished step; anything else asks the model to go on.
    const run = this.deps.service.unfinishedRun();
    if (run) await this.deps.controller.resumePlannedRun(savedRunOf(run));
    else await this.deps.controller.send(RESUME_TEXT);
  }

  async undoLastEdit(): Promise<void> {
    const { service, store } = this.deps;
    if (this.deps.controller.busy) {
      void vscode.window.showWarningMessage('Local Harness: wait for the turn to finish (or press Stop) before undoing an edit.');
      return;
    }
    const { restored: [restored], refused } = await service.undoLastEdit(this.deps.fs, workspaceRoots(this.deps.fs));
    if (refused.length > 0) {
      const text = `Undo Last Agent Edit: ${refusedText(refused)}`;
      store.notice(text);
      this.deps.log.warn(`sessions: ${text}`);
      void vscode.window.showWarningMessage(`Local Harness: ${text}`);
    }
    if (!restored) {
      if (refused.length === 0) void vscode.window.showInformationMessage('Local Harness: there is no agent edit to undo in this chat.');
      return;
    }
    const left = await service.undoableEdits();
    const name = vscode.workspace.asRelativePath(restored);
    const text = `Undid the last agent edit: restored ${name}.${left ? ` ${left} more edit${left === 1 ? '' : 's'} can be undone.` : ''}`;
    store.notice(text);
    this.deps.log.info(`sessions: ${text}`);
    void vscode.window.showInformationMessage(`Local Harness: ${text}`);
  }

  async compressNow(): Promise<void> {
    const { controller, store } = this.deps;
    const agent = controller.agentSession;
    if (controller.busy) {
      void vscode.window.showWarningMessage('Local Harness: wait for the turn to finish (or press Stop) before compressing.');
      return;
    }
    if (!agent?.context || agent.history.length === 0) {
      void vscode.window.showInformationMessage('Local Harness: nothing to compress yet. Send a message first.');
      return;
    }
    const report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Local Harness: compressing the context…', cancellable: true },
      (_progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return agent.context!.compressNow(chatRequest(agent.systemPrompt(), agent.history), abort.signal);
      },
    );
    // The compression event already put "before → after" in the panel; the meter follows the new size.
    store.dispatch({ type: 'usage', used: Math.max(0, Math.round(agent.context.status().used)) });
    const text =
      report.method === 'none'
        ? `Nothing could be compressed (${report.tokensBefore} tokens).`
        : `Context compressed: ${report.tokensBefore} → ${report.tokensAfter} tokens (${report.messagesAffected} messages).`;
    if (report.method === 'none') store.notice(text);
    void vscode.window.showInformationMessage(`Local Harness: ${text}`);
  }

  /** New chat, or the current session changed: keep an open History view current. */
  refresh(): void {
    if (this.historyOpen) void this.postList(false);
  }

  private async onPanelMessage(msg: Extract<WebviewToHost, { type: 'sessions' | 'sessionAction' }>): Promise<void> {
    if (msg.type === 'sessions') {
      this.historyOpen = msg.open;
      if (msg.open) await this.postList(false);
      return;
    }
    await this.act(msg.action, msg.id);
  }

  private async act(action: SessionAction, id: string): Promise<void> {
    switch (action) {
      case 'open':
        await this.open(id);
        return;
      case 'rename':
        await this.rename(id);
        return;
      case 'delete':
        await this.delete(id);
        return;
      case 'exportMarkdown':
        await this.export(id, 'markdown');
        return;
      case 'exportJson':
        await this.export(id, 'json');
        return;
    }
  }

  private async rename(id: string): Promise<void> {
    const info = await this.requireInfo(id);
    const title = await vscode.window.showInputBox({
      title: 'Rename Session',
      value: info.title,
      prompt: 'A new title for this session',
      validateInput: (v) => (v.trim() === '' ? 'The title cannot be empty.' : v.trim().length > 500 ? 'At most 500 characters.' : undefined),
    });
    if (title === undefined) return;
    await this.deps.service.rename(id, title);
    await this.postList(false);
  }

  private async delete(id: string): Promise<void> {
    const info = await this.requireInfo(id);
    const choice = await vscode.window.showWarningMessage(
      `Delete the session "${info.title}"?`,
      { modal: true, detail: `${info.messageCount} message(s), its tool log and its undo history are removed. This cannot be undone.` },
      'Delete',
    );
    if (choice !== 'Delete') return;
    const wasCurrent = this.deps.service.currentId === id;
    await this.deps.service.delete(id);
    if (wasCurrent) await this.deps.controller.newChat();
    await this.postList(false);
  }

  private async export(id: string, format: ExportFormat): Promise<void> {
    const info = await this.requireInfo(id);
    const ext = format === 'markdown' ? 'md' : 'json';
    const base = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
    const target = await vscode.window.showSaveDialog({
      title: `Export Session as ${format === 'markdown' ? 'Markdown' : 'JSON'}`,
      defaultUri: vscode.Uri.joinPath(base, `${fileNameOf(info.title)}.${ext}`),
      filters: format === 'markdown' ? { Markdown: ['md'] } : { JSON: ['json'] },
    });
    if (!target) return;
    const text = await this.deps.service.export(id, format);
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    this.deps.log.info(`sessions: exported ${id} to ${target.toString(true)}`);
    void vscode.window.showInformationMessage(`Local Harness: exported "${info.title}" to ${vscode.workspace.asRelativePath(target)}.`);
  }

  private async requireInfo(id: string): Promise<SessionInfo> {
    const info = await this.deps.service.info(id);
    if (!info) {
      await this.postList(false);
      throw new Error('That session no longer exists (deleted in another window?).');
    }
    return info;
  }

  private async postList(reveal: boolean): Promise<void> {
    const { service } = this.deps;
    let sessions: SessionEntry[] = [];
    let note: string | undefined;
    try {
      sessions = (await service.list()).map(toEntry);
      if (service.unavailableReason) note = `The session history could not be opened: ${service.unavailableReason}`;
      else if (service.readOnly) note = READ_ONLY_NOTE;
      else if (sessions.length === 0) note = 'No saved sessions yet. Every chat is saved from its first message.';
    } catch (err) {
      note = `Could not list the sessions: ${errorMessage(err)}`;
    }
    this.deps.chatView.postSessions({
      type: 'sessions',
      sessions,
      currentId: service.currentId ?? null,
      ...(note !== undefined && { note }),
      ...(reveal && { reveal: true }),
    });
  }
}

function toEntry(s: SessionInfo): SessionEntry {
  return { id: s.id, title: s.title, model: s.model, updatedAt: s.updatedAt, messageCount: s.messageCount, interrupted: s.status === 'interrupted' };
}

function fileNameOf(title: string): string {
  const clean = title.replace(/[^\p{L}\p{N} _.-]+/gu, ' ').trim().replace(/\s+/g, '-').slice(0, 60);
  return clean || 'session';
}
