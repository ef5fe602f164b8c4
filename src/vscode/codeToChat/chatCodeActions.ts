// "Fix with Local Harness" on each error or warning a language server reports (a quick fix, so it shows in the
// lightbulb), and "Explain with Local Harness" on a selection (only when asked: Ctrl+. or the context menu).
// A sibling of the indexing provider (src/vscode/knowledge/indexCodeActions.ts): its own registration and kinds.
import * as vscode from 'vscode';
import { selectionLines } from '../../editor/selectionLines';
import { codeValue, EXPLAIN_ACTION_TITLE, fixActionTitle, type ProblemInfo } from '../../editor/codeToChat/prompts';

export const FIX_DIAGNOSTIC_COMMAND = 'localharness.fixDiagnostic';
export const EXPLAIN_RANGE_COMMAND = 'localharness.explainRange';

function explainKind(): vscode.CodeActionKind {
  return vscode.CodeActionKind.Empty.append('localharness').append('explain');
}

/** What a diagnostic tells, 1-based, for the fix request. */
export function problemOf(diagnostic: vscode.Diagnostic): ProblemInfo {
  const { start, end } = diagnostic.range;
  return {
    message: diagnostic.message,
    source: diagnostic.source,
    code: codeValue(diagnostic.code),
    line: start.line + 1,
    column: start.character + 1,
    endLine: end.line + 1,
    endColumn: end.character + 1,
  };
}

class ChatCodeActionProvider implements vscode.CodeActionProvider {
  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    const wants = (kind: vscode.CodeActionKind) => !context.only || context.only.contains(kind);
    if (wants(vscode.CodeActionKind.QuickFix)) {
      const problems = context.diagnostics.filter((d) => d.severity === vscode.DiagnosticSeverity.Error || d.severity === vscode.DiagnosticSeverity.Warning);
      for (const diagnostic of problems) {
        const title = fixActionTitle(diagnostic.message, problems.length > 1);
        const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [diagnostic];
        action.command = { command: FIX_DIAGNOSTIC_COMMAND, title, arguments: [document.uri, problemOf(diagnostic)] };
        actions.push(action);
      }
    }
    const lines = selectionLines(range.start, range.end);
    if (lines && context.triggerKind === vscode.CodeActionTriggerKind.Invoke && wants(explainKind())) {
      const action = new vscode.CodeAction(EXPLAIN_ACTION_TITLE, explainKind());
      action.command = { command: EXPLAIN_RANGE_COMMAND, title: EXPLAIN_ACTION_TITLE, arguments: [document.uri, lines] };
      actions.push(action);
    }
    return actions;
  }
}

/** Registers the provider once for every file document. */
export function registerChatCodeActions(): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new ChatCodeActionProvider(), {
    providedCodeActionKinds: [vscode.CodeActionKind.QuickFix, explainKind()],
  });
}
