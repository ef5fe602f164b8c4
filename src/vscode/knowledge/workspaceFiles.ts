// "Index Workspace…": asks for a glob, finds the matching files of the workspace folder (without what
// files.exclude and search.exclude hide), and confirms the count and the mode before anything is indexed.
import * as vscode from 'vscode';
import type { IndexMode } from '../../core/knowledge/types';
import type { Logger } from '../../editor/log/logger';
import { NO_FOLDER_TEXT, type KnowledgeService } from '../../editor/knowledge/knowledgeService';
import { DEFAULT_WORKSPACE_GLOB, enabledPatterns, excludedBy, globProblem } from '../../editor/knowledge/workspaceGlob';

/** More than this is almost certainly a mistake in the glob (and hours of model time). */
const MAX_FILES = 2000;
const LAST_GLOB_KEY = 'localharness.index.lastGlob';

export async function askWorkspaceFiles(
  service: KnowledgeService,
  log: Logger,
  state?: vscode.Memento,
): Promise<{ files: vscode.Uri[]; mode: IndexMode } | undefined> {
  const root = service.workspace();
  if (!root) throw new Error(NO_FOLDER_TEXT);
  const glob = await vscode.window.showInputBox({
    title: 'Index Workspace',
    prompt: 'Files to index, as a glob relative to the workspace folder (files.exclude and search.exclude apply)',
    value: state?.get<string>(LAST_GLOB_KEY) ?? DEFAULT_WORKSPACE_GLOB,
    validateInput: (value) => globProblem(value),
  });
  if (glob === undefined) return undefined;
  await state?.update(LAST_GLOB_KEY, glob.trim());
  const folder = vscode.Uri.file(root);
  // files.exclude applies when no exclude is given; search.exclude (node_modules, bower_components …) is checked here.
  const found = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, glob.trim()), undefined, MAX_FILES + 1);
  const searchExclude = vscode.workspace.getConfiguration('search', folder).get<Record<string, unknown>>('exclude');
  const filesExclude = vscode.workspace.getConfiguration('files', folder).get<Record<string, unknown>>('exclude');
  const excluded = excludedBy(enabledPatterns(filesExclude, searchExclude));
  const files = found.filter((uri) => {
    const rel = service.relativePath(uri.fsPath);
    return rel !== undefined && !excluded(rel);
  });
  files.sort((a, b) => a.fsPath.localeCompare(b.fsPath));
  log.info(`index workspace: "${glob}" matched ${found.length} file(s), ${files.length} after excludes`);
  if (files.length === 0) {
    void vscode.window.showInformationMessage(`Local Harness: no files match "${glob}" (after files.exclude and search.exclude).`);
    return undefined;
  }
  if (found.length > MAX_FILES) {
    void vscode.window.showWarningMessage(`Local Harness: "${glob}" matches more than ${MAX_FILES} files. Narrow the pattern (e.g. src/**/*.ts) and try again.`);
    return undefined;
  }
  const FULL = 'Index';
  const METADATA = 'Metadata Only';
  const answer = await vscode.window.showInformationMessage(
    `Index ${files.length} file${files.length === 1 ? '' : 's'} matching "${glob}"?`,
    {
      modal: true,
      detail: `Indexing fully asks the model for a summary of each file and embeds its chunks; it waits while a chat turn runs and can be cancelled. Metadata only records size, language and outline without model calls.`,
    },
    FULL,
    METADATA,
  );
  if (answer === FULL) return { files, mode: 'full' };
  if (answer === METADATA) return { files, mode: 'metadata' };
  return undefined;
}
