// The workspace as the core sees it: folders as plain paths, and the environment line of the system prompt.
import * as vscode from 'vscode';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SystemInfo } from '../core/prompt/systemPrompt';
import { WorkspaceRoots, type WorkspaceFolder } from '../core/workspace/workspaceRoots';
import type { FileSystemPort } from '../core/ports';
import { folderPath } from './ports/vsCodeFileSystem';

export function workspaceFolders(): WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, path: folderPath(f.uri) }));
}

/**
 * Without a folder no tool is offered (allowedRisks []); a session still needs a root. This one does not exist,
 * so nothing (rules files included) is ever read from it.
 */
export const NO_FOLDER: WorkspaceFolder = { name: 'no-folder', path: path.join(os.tmpdir(), `localharness-no-folder-${process.pid}`) };

/** Today's folders as confinement roots (restores write inside them only); with no folder open, none is inside. */
export function workspaceRoots(fs: FileSystemPort): WorkspaceRoots {
  const folders = workspaceFolders();
  return new WorkspaceRoots(folders.length > 0 ? folders : [NO_FOLDER], fs);
}

export function systemInfo(folders: readonly WorkspaceFolder[]): SystemInfo {
  return {
    os: `${os.type()} ${os.release()}`,
    // Commands run in the terminal's default shell when shell integration works.
    shell: vscode.env.shell || process.env.SHELL || (process.platform === 'win32' ? 'cmd.exe' : '/bin/sh'),
    workspaceFolders: folders.map((f) => f.path),
  };
}
