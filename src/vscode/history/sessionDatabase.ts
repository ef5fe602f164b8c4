// Where the editor keeps its sessions, and how their storage problems reach the user. The database opens on the
// first turn or when the History is shown, never at activation.
import * as vscode from 'vscode';
import type { ChatStateStore } from '../../editor/chat/chatStateStore';
import type { Logger } from '../../editor/log/logger';
import { EditorSessionService } from '../../editor/history/sessionService';
import { checkpointLimitBytes, DEFAULT_CHECKPOINT_MB } from '../../core/checkpoints/checkpointSettings';
import { errorMessage } from '../../editor/log/logger';

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
    checkpointLimitBytes: () => {
      try {
        return checkpointLimitBytes({ maxSizeMB: vscode.workspace.getConfiguration('localharness').get<number>('checkpoints.maxSizeMB', DEFAULT_CHECKPOINT_MB) });
      } catch (err) {
        log.warn(`localharness.checkpoints.maxSizeMB: ${errorMessage(err)}; using ${DEFAULT_CHECKPOINT_MB} MB`);
        return checkpointLimitBytes(undefined);
      }
    },
  });
}
