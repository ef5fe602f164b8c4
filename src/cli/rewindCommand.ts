// `localharness sessions rewind --session ID --to N`: the workspace files and the stored conversation go back to
// before the user's message N. Files changed since the agent left them are conflicts: without --force nothing is
// restored and they are listed. Stored paths outside --workspace (default: the current directory) are never written;
// without --force they too stop the restore (most often the command ran in the wrong folder), with --force the rest
// is restored. `--undo` takes the newest rewind back (files and conversation), by the same rules.
import * as path from 'node:path';
import { NodeFileSystem } from '../node/nodeFileSystem';
import { applyRestore, applyUndoRewind, planRestore, planUndoRewind, type PlannedFile } from '../core/checkpoints/rewind';
import { refusedText, type RefusedFile } from '../core/checkpoints/restoreConfinement';
import { WorkspaceRoots } from '../core/workspace/workspaceRoots';
import type { SessionStore } from '../persistence/sessionStore';
import { PersistenceError } from '../persistence/errors';
import type { SessionsAction } from './sessionsArgs';

interface Io {
  json: boolean;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export async function rewindCommand(store: SessionStore, action: Exclude<SessionsAction, { kind: 'messages' }>, io: Io): Promise<number> {
  const history = store.checkpointHistory;
  const fs = new NodeFileSystem();
  const roots = new WorkspaceRoots([{ name: path.basename(action.workspace), path: action.workspace }], fs);
  const fail = (message: string) => {
    io.stderr.write(`localharness: ${message}\n`);
    return 1;
  };
  /** Refused files stop the restore unless --force; with it they are only reported. Returns an exit code to stop. */
  const confine = (refused: RefusedFile[]) => {
    if (refused.length === 0) return undefined;
    if (!action.force) return fail(`${refusedText(refused)} Nothing was changed. Run it in the session's workspace (or pass --workspace DIR), or with --force to restore the other files.`);
    io.stderr.write(`localharness: ${refusedText(refused)}\n`);
    return undefined;
  };
  if (action.kind === 'undo-rewind') {
    const plan = await planUndoRewind(history, fs, roots, action.session);
    if (typeof plan === 'string') return fail(plan);
    const conflicts = plan.files.filter((f) => f.conflict).map((f) => f.path);
    if (conflicts.length > 0 && !action.force) return fail(conflictText(conflicts, 'undoing the restore'));
    const stop = confine(plan.refused);
    if (stop !== undefined) return stop;
    const outcome = await applyUndoRewind(history, fs, action.session, plan, { overwriteConflicts: action.force });
    report(io, { undone: true, restored: outcome.restored.map((path) => ({ path, action: 'restored' })), refused: outcome.refused });
    return 0;
  }
  const messages = await history.userMessages(action.session);
  const message = messages.find((m) => m.number === action.to);
  if (!message) return fail(`session ${action.session} has ${messages.length} message(s) from the user; there is no message ${action.to}`);
  let plan;
  try {
    plan = await planRestore(history, fs, roots, action.session, message.id);
  } catch (err) {
    if (err instanceof PersistenceError) return fail(err.message);
    throw err;
  }
  const conflicts = plan.files.filter((f) => f.conflict).map((f) => f.path);
  if (conflicts.length > 0 && !action.force) return fail(conflictText(conflicts, 'restoring'));
  const stop = confine(plan.refused);
  if (stop !== undefined) return stop;
  await applyRestore(history, fs, plan, { overwriteConflicts: action.force });
  report(io, {
    to: action.to,
    kept: message.number - 1,
    restored: plan.files.filter((f) => f.action !== 'none').map((f) => ({ path: f.path, action: verb(f), ...(f.conflict && { conflict: true }) })),
    refused: plan.refused,
  });
  return 0;
}

function verb(file: PlannedFile): string {
  return file.action === 'delete' ? 'deleted' : 'restored';
}

function conflictText(paths: string[], doing: string): string {
  return (
    `${paths.length} file(s) changed since the agent last wrote them: ${paths.join(', ')}. Nothing was changed. ` +
    `Run again with --force to overwrite them too (${doing} records them first, so \`sessions rewind --undo\` brings them back).`
  );
}

interface RewindReport {
  to?: number;
  kept?: number;
  undone?: boolean;
  restored: Array<{ path: string; action: string; conflict?: boolean }>;
  refused: RefusedFile[];
}

function report(io: Io, result: RewindReport): void {
  if (io.json) {
    io.stdout.write(JSON.stringify(result) + '\n');
    return;
  }
  for (const file of result.restored) io.stdout.write(`${file.action.padEnd(8)}  ${file.path}${file.conflict ? '  (overwrote changes made since)' : ''}\n`);
  for (const file of result.refused) io.stdout.write(`${'refused'.padEnd(8)}  ${file.path}  (${file.reason}; not written)\n`);
  if (result.undone) io.stdout.write(`Undid the last restore: the conversation and ${result.restored.length} file(s) are back.\n`);
  else io.stdout.write(`Restored to before message ${result.to}: ${result.restored.length} file(s); the conversation keeps your ${result.kept} earlier message(s).\n`);
}
