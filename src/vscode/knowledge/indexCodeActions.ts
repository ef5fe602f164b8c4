// "Index this file with Local Harness" (and "Index selection" when text is selected) in the Ctrl+. menu of
// every file on disk. Its own provider and registration, so quick fixes can live in a sibling provider.
// Offered when the user asks for code actions (Ctrl+., the context menu), not on every cursor move: an action
// that applies everywhere would otherwise keep a lightbulb lit on every line.
import * as vscode from 'vscode';
import type { LineSpan } from '../../core/knowledge/types';
import { selectionLines } from '../../editor/selectionLines';

export const INDEX_FILE_TITLE = 'Index this file with Local Harness';
export const INDEX_SELECTION_TITLE = 'Index selection with Local Harness';

/** Not a quick fix nor a refactoring: it changes no code. Listed under "More Actions…". */
function indexKind(): vscode.CodeActionKind {
  return vscode.CodeActionKind.Empty.append('localharness').append('index');
}

class IndexCodeActionProvider implements vscode.CodeActionProvider {
  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (context.triggerKind !== vscode.CodeActionTriggerKind.Invoke) return [];
    if (context.only && !context.only.contains(indexKind())) return [];
    const file = new vscode.CodeAction(INDEX_FILE_TITLE, indexKind());
    file.command = { command: 'localharness.indexFile', title: INDEX_FILE_TITLE, arguments: [document.uri] };
    const actions = [file];
    const lines = selectionLines(range.start, range.end);
    if (lines) {
      const selection = new vscode.CodeAction(INDEX_SELECTION_TITLE, indexKind());
      const span: LineSpan = { startLine: lines.start, endLine: lines.end };
      selection.command = { command: 'localharness.indexSelection', title: INDEX_SELECTION_TITLE, arguments: [document.uri, span] };
      actions.push(selection);
    }
    return actions;
  }
}

/** Registers the provider once for every file document. */
export function registerIndexCodeActions(): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new IndexCodeActionProvider(), { providedCodeActionKinds: [indexKind()] });
}
