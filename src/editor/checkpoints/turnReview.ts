// Review what a turn changed, and restore to before a message, for the editor (no 'vscode' import: the integration
// tests drive exactly this). The chat store carries the review (host-owned state, in every snapshot); the files
// are written through the editor's plain file system, never the checkpointing one.
import type { FileSystemPort } from '../../core/ports';
import type { WorkspaceRoots } from '../../core/workspace/workspaceRoots';
import { stateHash, type FileState, type TurnChange } from '../../core/checkpoints/history';
import { confineToWorkspace, type RefusedFile } from '../../core/checkpoints/restoreConfinement';
import { applyRestore, applyUndoRewind, planRestore, planUndoRewind, readState, writeState, type RestoreOutcome, type RestorePlan, type UndoRewindPlan } from '../../core/checkpoints/rewind';
import type { ChatStateStore } from '../chat/chatStateStore';
import type { EditorSessionService } from '../history/sessionService';
import type { ReviewFile, TurnReview } from '../../shared/protocol';

export interface TurnReviewDeps {
  sessions: EditorSessionService;
  store: ChatStateStore;
  fs: FileSystemPort;
  /** Today's workspace folders: a restore or an Undo writes inside them only. */
  roots: () => WorkspaceRoots;
  /** Workspace-relative label of an absolute path. */
  label: (path: string) => string;
}

/** A review Undo of files changed since the turn left them: the caller asks before overwriting. */
export interface UndoPlan {
  files: Array<{ path: string; before: FileState; conflict: boolean }>;
  /** Stored paths outside the workspace: never written. */
  refused: RefusedFile[];
}

export class TurnReviewService {
  constructor(private readonly deps: TurnReviewDeps) {}

  /** After a turn: the saved message id goes on its user item, and the files it changed (if any) up for review. */
  async afterTurn(): Promise<void> {
    const current = await this.deps.sessions.checkpoints();
    if (!current?.turnMessageId) return;
    const { store } = this.deps;
    store.dispatch({ type: 'message_stored', messageId: current.turnMessageId });
    const changes = await current.history.turnChanges(current.sessionId, current.turnMessageId);
    if (changes.length === 0) return;
    const files: ReviewFile[] = [];
    for (const change of changes) files.push(await this.reviewFile(change));
    store.dispatch({ type: 'review', review: { messageId: current.turnMessageId, files } });
  }

  /** Keep one file (or every pending one): it leaves the review as is. */
  async keep(path?: string): Promise<void> {
    const review = this.review();
    const current = await this.deps.sessions.checkpoints();
    if (!review || !current) return;
    await current.history.markKept(current.sessionId, review.messageId, path);
    this.setStates(review, path, 'kept');
  }

  /** What undoing one file (or every pending one) would overwrite: files changed since the turn are conflicts. */
  async planUndo(path?: string): Promise<UndoPlan> {
    const review = this.review();
    const current = await this.deps.sessions.checkpoints();
    if (!review || !current) return { files: [], refused: [] };
    const pending = new Set(review.files.filter((f) => f.state === 'pending' && (path === undefined || f.path === path)).map((f) => f.path));
    const changes = (await current.history.turnChanges(current.sessionId, review.messageId)).filter((c) => pending.has(c.path));
    const { inside, refused } = await confineToWorkspace(this.deps.roots(), changes);
    const files: UndoPlan['files'] = [];
    for (const change of inside) {
      const now = stateHash(await readState(this.deps.fs, change.path));
      files.push({ path: change.path, before: change.before, conflict: change.afterHash !== undefined && now !== change.afterHash && now !== stateHash(change.before) });
    }
    return { files, refused };
  }

  /** Puts the files back as they were before the turn (conflicting ones only when `overwriteConflicts`). */
  async applyUndo(plan: UndoPlan, overwriteConflicts: boolean): Promise<string[]> {
    const review = this.review();
    const chosen = plan.files.filter((f) => !f.conflict || overwriteConflicts);
    for (const file of chosen) await writeState(this.deps.fs, file.path, file.before);
    if (review) for (const file of chosen) this.setStates(this.review() ?? review, file.path, 'undone');
    return chosen.map((f) => f.path);
  }

  /** The bytes a file of the review had before the turn (the left side of its diff); null: it did not exist. */
  async beforeOf(path: string): Promise<FileState | undefined> {
    const review = this.review();
    const current = await this.deps.sessions.checkpoints();
    if (!review || !current) return undefined;
    const change = (await current.history.turnChanges(current.sessionId, review.messageId)).find((c) => c.path === path);
    return change ? change.before : undefined;
  }

  /** What "Restore to here" on message `messageId` would do. Undefined when the chat is not recorded. */
  async planRestore(messageId: number): Promise<RestorePlan | undefined> {
    const current = await this.deps.sessions.checkpoints();
    if (!current) return undefined;
    return planRestore(current.history, this.deps.fs, this.deps.roots(), current.sessionId, messageId);
  }

  /** Restores, then the caller reloads the session (panel and model) from the database. */
  async applyRestore(plan: RestorePlan, overwriteConflicts: boolean): Promise<RestoreOutcome> {
    const current = await this.requireCurrent();
    return applyRestore(current.history, this.deps.fs, plan, { overwriteConflicts });
  }

  async planUndoRestore(): Promise<UndoRewindPlan | string> {
    const current = await this.deps.sessions.checkpoints();
    if (!current) return 'this chat is not saved, so there is no restore to undo';
    return planUndoRewind(current.history, this.deps.fs, this.deps.roots(), current.sessionId);
  }

  async applyUndoRestore(plan: UndoRewindPlan, overwriteConflicts: boolean): Promise<RestoreOutcome> {
    const current = await this.requireCurrent();
    return applyUndoRewind(current.history, this.deps.fs, current.sessionId, plan, { overwriteConflicts });
  }

  /** The session being shown (restore reloads it). */
  get sessionId(): string | undefined {
    return this.deps.sessions.currentId;
  }

  private async requireCurrent() {
    const current = await this.deps.sessions.checkpoints();
    if (!current) throw new Error('this chat is not saved (or the session history is open in another window)');
    return current;
  }

  private review(): TurnReview | undefined {
    return this.deps.store.state.review;
  }

  private setStates(review: TurnReview, path: string | undefined, state: ReviewFile['state']): void {
    const files = review.files.map((f) => (f.state === 'pending' && (path === undefined || f.path === path) ? { ...f, state } : f));
    this.deps.store.dispatch({ type: 'review', review: { ...review, files } });
  }

  private async reviewFile(change: TurnChange): Promise<ReviewFile> {
    const now = await readState(this.deps.fs, change.path);
    const kind: ReviewFile['change'] = change.before === null ? 'created' : now === null ? 'deleted' : 'modified';
    return { path: change.path, label: this.deps.label(change.path), change: kind, state: change.kept ? 'kept' : 'pending' };
  }
}
