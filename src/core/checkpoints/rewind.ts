// "Restore to before message N": the files every later turn changed go back to their bytes before that turn, and the
// conversation is cut before the message. A file whose current bytes match nothing the agent found or left there was
// changed by the user since: a conflict, restored only when the caller says so. The rewind records the current state
// first, so it can itself be undone (undoRewind). Stored paths outside today's workspace are refused, never read or
// written (restoreConfinement.ts); the rest is restored.
import * as nodePath from 'node:path';
import type { FileSystemPort } from '../ports';
import type { WorkspaceRoots } from '../workspace/workspaceRoots';
import { stateHash, type CheckpointHistoryPort, type FileState, type RewoundFile } from './history';
import { confineToWorkspace, type RefusedFile } from './restoreConfinement';

export type RestoreAction = 'write' | 'delete' | 'none';

export interface PlannedFile {
  path: string;
  /** write: put the old bytes back; delete: the turn created it; none: it already is as it was. */
  action: RestoreAction;
  /** Changed by someone other than the agent since (the user): not overwritten unless asked. */
  conflict: boolean;
  target: FileState;
}

export interface RestorePlan {
  sessionId: string;
  messageId: number;
  /** Inside the workspace: what the restore will do. */
  files: PlannedFile[];
  /** Stored paths outside the workspace: never touched. */
  refused: RefusedFile[];
}

export interface RestoreOutcome {
  /** Paths written back or deleted. */
  restored: string[];
  /** Conflicting paths left as the user has them. */
  skipped: string[];
  /** Stored paths outside the workspace, not touched. */
  refused: RefusedFile[];
}

export async function planRestore(history: CheckpointHistoryPort, fs: FileSystemPort, roots: WorkspaceRoots, sessionId: string, messageId: number): Promise<RestorePlan> {
  const { inside, refused } = await confineToWorkspace(roots, await history.restoreTargets(sessionId, messageId));
  const files: PlannedFile[] = [];
  for (const target of inside) {
    const current = await readState(fs, target.path);
    const currentHash = stateHash(current);
    const action: RestoreAction = currentHash === stateHash(target.state) ? 'none' : target.state === null ? 'delete' : 'write';
    files.push({ path: target.path, action, conflict: action !== 'none' && !target.known.has(currentHash), target: target.state });
  }
  return { sessionId, messageId, files, refused };
}

/**
 * Applies a plan: records the rewind (current bytes of every file it will touch, the conversation it removes), then
 * writes the files. Conflicting files are skipped unless `overwriteConflicts`.
 */
export async function applyRestore(
  history: CheckpointHistoryPort,
  fs: FileSystemPort,
  plan: RestorePlan,
  options: { overwriteConflicts: boolean },
): Promise<RestoreOutcome> {
  const chosen = plan.files.filter((f) => f.action !== 'none' && (!f.conflict || options.overwriteConflicts));
  const saved: RewoundFile[] = [];
  for (const file of chosen) {
    const current = await readState(fs, file.path);
    saved.push({ path: file.path, before: typeof current === 'string' ? new TextEncoder().encode(current) : current, afterHash: stateHash(file.target) });
  }
  await history.commitRewind(plan.sessionId, plan.messageId, saved);
  for (const file of chosen) await writeState(fs, file.path, file.target);
  return {
    restored: chosen.map((f) => f.path),
    skipped: plan.files.filter((f) => f.action !== 'none' && f.conflict && !options.overwriteConflicts).map((f) => f.path),
    refused: plan.refused,
  };
}

export interface UndoRewindPlan {
  rewindId: number;
  toMessageId: number;
  files: Array<{ path: string; target: FileState; conflict: boolean }>;
  refused: RefusedFile[];
}

/** The newest rewind's undo, or a sentence saying why there is none. */
export async function planUndoRewind(history: CheckpointHistoryPort, fs: FileSystemPort, roots: WorkspaceRoots, sessionId: string): Promise<UndoRewindPlan | string> {
  const rewind = await history.latestRewind(sessionId);
  if (!rewind) return 'there is no restore to undo in this session';
  if (rewind.blocked) return rewind.blocked;
  const { inside, refused } = await confineToWorkspace(roots, rewind.files);
  const files = [];
  for (const file of inside) {
    const current = stateHash(await readState(fs, file.path));
    files.push({ path: file.path, target: file.before, conflict: current !== file.afterHash && current !== stateHash(file.before) });
  }
  return { rewindId: rewind.id, toMessageId: rewind.toMessageId, files, refused };
}

export async function applyUndoRewind(
  history: CheckpointHistoryPort,
  fs: FileSystemPort,
  sessionId: string,
  plan: UndoRewindPlan,
  options: { overwriteConflicts: boolean },
): Promise<RestoreOutcome> {
  const chosen = plan.files.filter((f) => !f.conflict || options.overwriteConflicts);
  await history.commitUndoRewind(sessionId, plan.rewindId);
  for (const file of chosen) await writeState(fs, file.path, file.target);
  return { restored: chosen.map((f) => f.path), skipped: plan.files.filter((f) => f.conflict && !options.overwriteConflicts).map((f) => f.path), refused: plan.refused };
}

export async function readState(fs: FileSystemPort, path: string): Promise<Uint8Array | null> {
  const stat = await fs.lstat(path);
  if (!stat || stat.kind !== 'file') return null;
  return fs.readBytes(path);
}

/** Puts a state back: the exact bytes (creating the folder a deleted file was in), or no file. */
export async function writeState(fs: FileSystemPort, path: string, state: FileState): Promise<void> {
  if (state === null) {
    if ((await fs.lstat(path)) && fs.remove) await fs.remove(path);
    return;
  }
  const dir = nodePath.dirname(path);
  if (!(await fs.lstat(dir))) await fs.mkdir(dir);
  if (typeof state === 'string') await fs.writeFile(path, state);
  else await fs.writeBytes(path, state);
}
