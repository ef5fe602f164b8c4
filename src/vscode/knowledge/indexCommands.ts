// The knowledge commands: Index This File / Selection / Workspace…, Remove From Index, Re-index, Show Knowledge,
// refresh, the queue's "ask again", and opening a file's summary. Each takes what its menu passes (an explorer
// Uri, a Knowledge view node) or falls back to the active editor.
import * as vscode from 'vscode';
import { registerLoggedCommands } from '../common/loggedCommands';
import type { LineSpan } from '../../core/knowledge/types';
import type { IndexRequest } from '../../indexing/indexer';
import type { Logger } from '../../editor/log/logger';
import { selectionLines } from '../../editor/selectionLines';
import type { IndexProgressRunner } from './indexProgress';
import type { KnowledgeDocuments } from './knowledgeDocument';
import { NO_FOLDER_TEXT, type KnowledgeService } from '../../editor/knowledge/knowledgeService';
import { KNOWLEDGE_VIEW_ID, type KnowledgeNode, type KnowledgeTree } from './knowledgeTree';
import { askWorkspaceFiles } from './workspaceFiles';

export interface KnowledgeCommandDeps {
  service: KnowledgeService;
  runner: IndexProgressRunner;
  tree: KnowledgeTree;
  documents: KnowledgeDocuments;
  /** Remembers the last Index Workspace glob. */
  workspaceState: vscode.Memento;
  /** Asks about the queued files again (the status bar item). */
  resumeQueue: () => Promise<void>;
  log: Logger;
}

export function registerKnowledgeCommands(deps: KnowledgeCommandDeps): vscode.Disposable[] {
  const { service, runner } = deps;
  const commands: Record<string, (...args: unknown[]) => unknown> = {
    'localharness.indexFile': async (arg, all) => {
      const uris = targetUris(arg, all);
      if (uris.length === 0) throw new Error('Open a file (or choose one in the explorer) to index it.');
      await runner.run(uris.map((uri) => ({ path: inWorkspace(service, uri), mode: 'full' })));
    },
    'localharness.indexSelection': async (arg, span) => {
      const target = selectionTarget(arg, span);
      await runner.run([{ path: inWorkspace(service, target.uri), mode: 'full', range: target.range }]);
    },
    'localharness.indexWorkspace': async () => {
      const chosen = await askWorkspaceFiles(service, deps.log, deps.workspaceState);
      if (chosen) await runner.run(chosen.files.map((uri) => ({ path: uri.fsPath, mode: chosen.mode })), { title: `Indexing ${chosen.files.length} files` });
    },
    'localharness.removeFromIndex': async (arg, all) => {
      const paths = arg && isNode(arg) ? [arg.file.path] : targetUris(arg, all, false).map((uri) => service.relativePath(uri.fsPath) ?? uri.fsPath);
      await removeFiles(service, paths.length ? paths : await pickIndexedFiles(service));
    },
    'localharness.reindexFile': async (arg) => {
      const request = await reindexRequest(service, arg);
      await runner.run([request]);
    },
    'localharness.showKnowledge': () => vscode.commands.executeCommand(`${KNOWLEDGE_VIEW_ID}.focus`),
    'localharness.refreshKnowledge': () => deps.tree.refresh(),
    'localharness.resumeIndexQueue': () => deps.resumeQueue(),
    'localharness.openKnowledgeItem': async (arg) => {
      if (arg && isNode(arg)) await deps.documents.open(arg.file.path);
    },
  };
  return registerLoggedCommands(commands, deps.log);
}

/** The explorer passes the clicked Uri and all selected ones; the editor title the file's Uri; the palette nothing. */
function targetUris(arg: unknown, all: unknown, activeFallback = true): vscode.Uri[] {
  if (Array.isArray(all) && all.every((u) => u instanceof vscode.Uri) && all.length > 0) return all as vscode.Uri[];
  if (arg instanceof vscode.Uri) return [arg];
  const active = vscode.window.activeTextEditor?.document.uri;
  return activeFallback && active ? [active] : [];
}

function selectionTarget(arg: unknown, span: unknown): { uri: vscode.Uri; range: LineSpan } {
  if (arg instanceof vscode.Uri && isSpan(span)) return { uri: arg, range: span };
  const editor = vscode.window.activeTextEditor;
  if (!editor) throw new Error('Select some lines in an editor to index them.');
  const lines = selectionLines(editor.selection.start, editor.selection.end);
  if (!lines) throw new Error('Select some lines first (or use "Index This File").');
  return { uri: editor.document.uri, range: { startLine: lines.start, endLine: lines.end } };
}

/** The absolute path of a workspace file; a clear error for anything else. */
function inWorkspace(service: KnowledgeService, uri: vscode.Uri): string {
  if (!service.workspace()) throw new Error(NO_FOLDER_TEXT);
  if (uri.scheme !== 'file') throw new Error(`Only files on disk can be indexed (${uri.scheme}: is not).`);
  if (!service.relativePath(uri.fsPath)) throw new Error(`${uri.fsPath} is outside the workspace folder; only its files are indexed.`);
  return uri.fsPath;
}

async function reindexRequest(service: KnowledgeService, arg: unknown): Promise<IndexRequest> {
  let rel: string | undefined;
  if (arg && isNode(arg)) rel = arg.file.path;
  else if (arg instanceof vscode.Uri) rel = service.relativePath(arg.fsPath);
  else if (vscode.window.activeTextEditor) rel = service.relativePath(vscode.window.activeTextEditor.document.uri.fsPath);
  if (!rel) throw new Error('Choose an indexed file in the Knowledge view to index it again.');
  const file = (await service.store())?.getFile(rel);
  if (!file) throw new Error(`${rel} is not in the index.`);
  return { path: rel, mode: file.mode, ...(file.range && { range: file.range }), force: true };
}

async function pickIndexedFiles(service: KnowledgeService): Promise<string[]> {
  const files = (await service.store())?.listFiles() ?? [];
  if (files.length === 0) {
    void vscode.window.showInformationMessage('Local Harness: nothing is indexed.');
    return [];
  }
  const picked = await vscode.window.showQuickPick(
    files.map((f) => ({ label: f.path, description: f.state === 'indexed' ? `${f.chunkCount} chunks` : f.state })),
    { title: 'Remove From Index', placeHolder: 'Files to remove from the workspace index', canPickMany: true },
  );
  return picked?.map((p) => p.label) ?? [];
}

async function removeFiles(service: KnowledgeService, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  const removed = await service.remove(paths);
  const missing = paths.filter((p) => !removed.includes(p));
  if (removed.length) {
    void vscode.window.showInformationMessage(
      `Local Harness: removed ${removed.length === 1 ? removed[0] : `${removed.length} files`} from the index.`,
    );
  }
  if (missing.length) void vscode.window.showInformationMessage(`Local Harness: ${missing.join(', ')} ${missing.length === 1 ? 'was' : 'were'} not in the index.`);
}

function isNode(value: unknown): value is KnowledgeNode {
  return typeof value === 'object' && value !== null && 'kind' in value && 'file' in value;
}

function isSpan(value: unknown): value is LineSpan {
  return typeof value === 'object' && value !== null && Number.isInteger((value as LineSpan).startLine) && Number.isInteger((value as LineSpan).endLine);
}
