// Commands that bring code from the editor to the chat: attach it as a context chip and, for the verbs, send a
// short request at once. Each opens and focuses the chat. While a turn runs, a verb attaches the code, puts its
// request in the message box and says so: nothing is queued behind the user's back.
import * as vscode from 'vscode';
import { registerLoggedCommands } from '../common/loggedCommands';
import type { Attachment } from '../../shared/protocol';
import type { ChatStateStore } from '../../editor/chat/chatStateStore';
import type { Logger } from '../../editor/log/logger';
import { selectionLines } from '../../editor/selectionLines';
import { EXPLAIN_RANGE_COMMAND, FIX_DIAGNOSTIC_COMMAND, problemOf } from './chatCodeActions';
import { attachmentFor } from './editorAttachment';
import { BUSY_NOTE, EXPLAIN_PROMPT, fixCodePrompt, fixProblemPrompt, linesAround, WRITE_TESTS_PROMPT, type ProblemInfo } from '../../editor/codeToChat/prompts';

export interface CodeToChatDeps {
  controller: { readonly busy: boolean; send(text: string): Promise<void> };
  chatView: { focusInput(): void; prefill(text: string): void };
  store: ChatStateStore;
  log: Logger;
}

type Lines = { start: number; end: number };

export function registerCodeToChat(deps: CodeToChatDeps): vscode.Disposable[] {
  const { store } = deps;
  const openChat = async () => {
    await vscode.commands.executeCommand('localharness.chat.focus');
    deps.chatView.focusInput();
  };
  /** Attach, open the chat, and send `prompt` (or leave it in the message box while a turn runs). */
  const ask = async (attachment: Attachment, prompt: string) => {
    store.addAttachment(attachment);
    await openChat();
    if (deps.controller.busy) {
      deps.chatView.prefill(prompt);
      void vscode.window.showInformationMessage(BUSY_NOTE);
      return;
    }
    // The command finishes now; the turn runs on and reports in the panel.
    deps.controller.send(prompt).catch((err: unknown) => {
      deps.log.error('code to chat: sending failed', err);
      store.error(`Sending the request failed: ${err instanceof Error ? err.message : String(err)}`);
    });
  };
  const verb = (prompt: (editor: vscode.TextEditor, lines: Lines | undefined) => string) => async (uri?: unknown) => {
    const { editor, lines } = editorAndLines(uri);
    await ask(attachmentFor(editor.document, lines), prompt(editor, lines));
  };

  const commands: Record<string, (...args: unknown[]) => unknown> = {
    'localharness.addSelectionToChat': async (uri?: unknown) => {
      const { editor, lines } = editorAndLines(uri);
      store.addAttachment(attachmentFor(editor.document, lines));
      await openChat();
    },
    'localharness.explainThis': verb(() => EXPLAIN_PROMPT),
    'localharness.fixThis': verb((editor, lines) => fixCodePrompt(problemsIn(editor.document, lines))),
    'localharness.writeTestsForThis': verb(() => WRITE_TESTS_PROMPT),
    'localharness.askAboutThisFile': async (uri?: unknown) => {
      const { editor } = editorAndLines(uri);
      const attachment = attachmentFor(editor.document);
      const question = await vscode.window.showInputBox({
        title: 'Ask About This File',
        prompt: `Your question about ${attachment.path} (the whole file is attached)`,
        placeHolder: 'What does this file do?',
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() === '' ? 'Type a question, or press Escape to cancel.' : undefined),
      });
      if (question === undefined || question.trim() === '') return;
      await ask(attachment, question.trim());
    },
    // From the quick fix: the problem's lines with a few around them, and the problem in words.
    [FIX_DIAGNOSTIC_COMMAND]: async (uri: unknown, problem: unknown) => {
      const document = await vscode.workspace.openTextDocument(asUri(uri));
      const p = problem as ProblemInfo;
      const attachment = attachmentFor(document, linesAround(p.line, p.endLine, lastTextLine(document)));
      await ask(attachment, fixProblemPrompt(p, attachment.path));
    },
    [EXPLAIN_RANGE_COMMAND]: async (uri: unknown, lines: unknown) => {
      const document = await vscode.workspace.openTextDocument(asUri(uri));
      await ask(attachmentFor(document, lines as Lines), EXPLAIN_PROMPT);
    },
  };
  return registerLoggedCommands(commands, deps.log);
}

/**
 * The editor a command is about: the active one (palette, keybinding, editor context menu; the menu passes the
 * document's URI). Its selection, or the whole file when nothing is selected.
 */
function editorAndLines(uri: unknown): { editor: vscode.TextEditor; lines: Lines | undefined } {
  const active = vscode.window.activeTextEditor;
  const editor = uri instanceof vscode.Uri ? (vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString()) ?? active) : active;
  if (!editor) throw new Error('Open a file in the editor first.');
  return { editor, lines: selectionLines(editor.selection.start, editor.selection.end) };
}

/** Errors and warnings language servers report in the lines (the whole file when none are given). */
function problemsIn(document: vscode.TextDocument, lines: Lines | undefined): ProblemInfo[] {
  return vscode.languages
    .getDiagnostics(document.uri)
    .filter((d) => d.severity === vscode.DiagnosticSeverity.Error || d.severity === vscode.DiagnosticSeverity.Warning)
    .filter((d) => !lines || (d.range.end.line + 1 >= lines.start && d.range.start.line + 1 <= lines.end))
    .map(problemOf);
}

/** The last line worth attaching: the empty line after a final newline is not. */
function lastTextLine(document: vscode.TextDocument): number {
  const count = document.lineCount;
  return count > 1 && document.lineAt(count - 1).text === '' ? count - 1 : count;
}

function asUri(value: unknown): vscode.Uri {
  if (value instanceof vscode.Uri) return value;
  if (typeof value === 'string') return vscode.Uri.parse(value, true);
  throw new Error('No file was given.');
}
