// A context chip for code in the editor: the document's workspace-relative path, the path the editor's file
// system reads it by, and the lines (absent = the whole file). Only a reference: the text is read at send time.
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import type { CodeAttachment } from '../../shared/protocol';
import { folderPath } from '../ports/vsCodeFileSystem';

export function attachmentFor(document: vscode.TextDocument, lines?: { start: number; end: number }): CodeAttachment {
  const uri = document.uri;
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  // The file-system port reads local paths and paths inside workspace folders; an unsaved buffer has neither.
  if (uri.scheme !== 'file' && !folder) throw new Error(`${document.fileName || 'This document'} is not a file in the workspace. Save it to a file first.`);
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  return {
    id: randomUUID(),
    path: folder || uri.scheme === 'file' ? vscode.workspace.asRelativePath(uri, multiRoot) : uri.path,
    file: folderPath(uri),
    ...(lines && { startLine: lines.start, endLine: lines.end }),
    ...(document.languageId && { languageId: document.languageId }),
  };
}
