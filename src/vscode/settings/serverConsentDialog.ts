// The model-server question as a native modal dialog. Deny is the first (default) button, so Enter keeps the code
// on the user's own server; VS Code adds Cancel, which (like Escape) means no for this window.
import * as vscode from 'vscode';
import { answerForButton, SERVER_BUTTONS, serverDialogText, type ServerAnswer, type ServerQuestion } from '../../editor/settings/serverConsent';

export async function askServerInModal(question: ServerQuestion): Promise<ServerAnswer | undefined> {
  const { message, detail } = serverDialogText(question);
  return answerForButton(await vscode.window.showWarningMessage(message, { modal: true, detail }, ...SERVER_BUTTONS));
}
