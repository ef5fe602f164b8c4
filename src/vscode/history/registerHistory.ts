// The History of stored sessions in the editor: its view and commands (open, resume, undo the last edit, compress
// now), created once the chat exists, and reopening this workspace's last session when a window reloads.
import * as vscode from 'vscode';
import { registerLoggedCommands } from '../common/loggedCommands';
import { errorMessage } from '../../editor/log/logger';
import { HistoryUi, type HistoryUiDeps } from './historyUi';
import { registerCheckpoints } from '../checkpoints/checkpointUi';

export interface SessionCommandDeps extends HistoryUiDeps {
  /** Remembers this workspace's current session, so a reloaded window shows the same conversation. */
  workspaceState: vscode.Memento;
}

const LAST_SESSION_KEY = 'localharness.lastSessionId';

export function registerHistory(deps: SessionCommandDeps): vscode.Disposable[] {
  const ui = new HistoryUi(deps);
  const commands: Record<string, () => Promise<void>> = {
    'localharness.showSessions': () => ui.show(),
    'localharness.undoLastEdit': () => ui.undoLastEdit(),
    'localharness.compressContext': () => ui.compressNow(),
    'localharness.resumeSession': () => ui.resume(),
  };
  // A new chat starts a new stored session: an open History view shows which one is current.
  const off = deps.store.subscribe((change) => {
    if (change.event?.type === 'reset' || change.event?.type === 'turn_end') ui.refresh();
    // The workspace's current session follows the panel: a reloaded window reopens it (below).
    if (change.event?.type === 'reset') void deps.workspaceState.update(LAST_SESSION_KEY, undefined);
    if (change.event?.type === 'turn_end' && deps.service.currentId) void deps.workspaceState.update(LAST_SESSION_KEY, deps.service.currentId);
  });
  void restoreLastSession(deps, ui);
  return [
    ...registerLoggedCommands(commands, deps.log),
    ...registerCheckpoints({ ...deps, busy: () => deps.controller.busy, reopen: (id) => ui.open(id) }),
    { dispose: () => off() },
    { dispose: () => void deps.service.dispose() },
  ];
}

/**
 * After a window reload the extension host starts empty: reopen the conversation this workspace last showed
 * (a turn cut off by the reload comes back marked interrupted, with Resume). Runs once per activation, which is
 * itself lazy (the view opening or a command), and only while the panel is still empty.
 */
async function restoreLastSession(deps: SessionCommandDeps, ui: HistoryUi): Promise<void> {
  const id = deps.workspaceState.get<string>(LAST_SESSION_KEY);
  if (!id || deps.store.snapshot().state.items.length > 0) return;
  try {
    const store = await deps.service.store();
    if (!store || !(await store.getSession(id))) {
      await deps.workspaceState.update(LAST_SESSION_KEY, undefined);
      return;
    }
    if (deps.store.snapshot().state.items.length > 0 || deps.controller.busy) return;
    await ui.open(id);
  } catch (err) {
    deps.log.warn(`sessions: could not reopen the last session: ${errorMessage(err)}`);
  }
}
