// Wiring for durable sessions: the service (created before the controller, which records through it) and the
// commands and History view (created once the chat view exists).
import * as vscode from 'vscode';
import type { HarnessController } from '../agent/harnessController';
import type { ChatStateStore } from '../chat/chatStateStore';
import type { ChatViewProvider } from '../chat/chatViewProvider';
import type { Logger } from '../log/logger';
import type { FileSystemPort } from '../../core/ports';
import { EditorSessionService } from './sessionService';
import { SessionsUi } from './sessionsUi';

/** The database lives in the extension's global storage: one history across workspaces, like the CLI's --db. */
export function createSessionService(context: vscode.ExtensionContext, store: ChatStateStore, log: Logger): EditorSessionService {
  return new EditorSessionService({
    dbPath: vscode.Uri.joinPath(context.globalStorageUri, 'sessions.db').fsPath,
    warn: (message) => {
      log.warn(message);
      store.notice(message);
      void vscode.window.showWarningMessage(`Local Harness: ${message}`);
    },
    info: (message) => log.info(message),
  });
}

export interface SessionCommandDeps {
  service: EditorSessionService;
  controller: HarnessController;
  chatView: ChatViewProvider;
  store: ChatStateStore;
  log: Logger;
  fs: FileSystemPort;
}

export function registerSessionCommands(deps: SessionCommandDeps): vscode.Disposable[] {
  const ui = new SessionsUi(deps);
  const commands: Record<string, () => Promise<void>> = {
    'localharness.showSessions': () => ui.show(),
    'localharness.undoLastEdit': () => ui.undoLastEdit(),
    'localharness.compressContext': () => ui.compressNow(),
    'localharness.resumeSession': () => ui.resume(),
  };
  // A new chat starts a new stored session: an open History view shows which one is current.
  const off = deps.store.subscribe((change) => {
    if (change.event?.type === 'reset' || change.event?.type === 'turn_end') ui.refresh();
  });
  return [
    ...Object.entries(commands).map(([id, handler]) =>
      vscode.commands.registerCommand(id, async () => {
        try {
          await handler();
        } catch (err) {
          deps.log.error(`command ${id} failed`, err);
          void vscode.window.showErrorMessage(`Local Harness: ${(err as Error)?.message ?? String(err)}`);
        }
      }),
    ),
    { dispose: () => off() },
    { dispose: () => void deps.service.dispose() },
  ];
}
