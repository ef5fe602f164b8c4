// The elicitation form in native UI: a modal "<server> asks: …" with Respond / Decline (VS Code adds Cancel),
// then an input box or quick pick per field. Forms are shown one at a time; a request the server (or the turn)
// cancels closes its open question.
import * as vscode from 'vscode';
import type { ElicitationPort } from '../../mcp/clientFeatures';
import { formPort, formSummary, type FormAsker, type PickItem, type PickQuestion, type TextQuestion } from '../../editor/mcp/elicitationForm';

export const RESPOND = 'Respond';
export const DECLINE = 'Decline';

export const vsCodeFormAsker: FormAsker = {
  async confirm({ server, message, fields }) {
    const answer = await vscode.window.showInformationMessage(`MCP server "${server}" asks: ${message}`, { modal: true, detail: formSummary(fields) }, RESPOND, DECLINE);
    return answer === RESPOND ? 'respond' : answer === DECLINE ? 'decline' : undefined;
  },
  text: askText,
  pick: askPick,
};

/** The editor's elicitation port: one form at a time, in the order the requests came. */
export function createElicitationPort(asker: FormAsker = vsCodeFormAsker): ElicitationPort {
  return formPort(asker);
}

function askText(question: TextQuestion, signal: AbortSignal): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = question.title;
  box.prompt = question.prompt;
  box.value = question.value;
  box.ignoreFocusOut = true;
  if (question.placeholder !== undefined) box.placeholder = question.placeholder;
  if (question.problem !== undefined) box.validationMessage = question.problem;
  return new Promise((resolve) => {
    const done = settleOnce(box, signal, resolve);
    box.onDidChangeValue((text) => (box.validationMessage = question.validate(text)));
    box.onDidAccept(() => {
      const problem = question.validate(box.value);
      if (problem !== undefined) box.validationMessage = problem;
      else done(box.value);
    });
    box.show();
  });
}

function askPick(question: PickQuestion, signal: AbortSignal): Promise<string[] | undefined> {
  type Item = vscode.QuickPickItem & { id: string };
  const pick = vscode.window.createQuickPick<Item>();
  const items: Item[] = question.items.map((i: PickItem) => ({ id: i.id, label: i.label, ...(i.description !== undefined && { description: i.description }) }));
  pick.title = question.title;
  pick.placeholder = question.problem !== undefined ? `${question.problem} ${question.placeholder}` : question.placeholder;
  pick.canSelectMany = question.canPickMany;
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = true;
  pick.items = items;
  const preselected = items.filter((i) => question.preselected.includes(i.id));
  if (question.canPickMany) pick.selectedItems = preselected;
  else if (preselected.length) pick.activeItems = preselected;
  return new Promise((resolve) => {
    const done = settleOnce(pick, signal, resolve);
    pick.onDidAccept(() => {
      // A single pick selects the clicked or highlighted item as it accepts; the highlight is the fallback.
      const chosen = question.canPickMany ? pick.selectedItems : (pick.selectedItems.length ? pick.selectedItems : pick.activeItems).slice(0, 1);
      // A single pick with nothing highlighted (a filter that matches nothing) is not an answer yet.
      if (!question.canPickMany && chosen.length === 0) return;
      done(chosen.map((i) => i.id));
    });
    pick.show();
  });
}

/** Resolves once: with the answer, or undefined when the question is hidden (Esc) or the request is cancelled. */
function settleOnce<T>(input: vscode.QuickInput, signal: AbortSignal, resolve: (value: T | undefined) => void): (value: T) => void {
  let settled = false;
  const finish = (value: T | undefined) => {
    if (settled) return;
    settled = true;
    signal.removeEventListener('abort', onAbort);
    resolve(value);
    input.dispose();
  };
  const onAbort = () => finish(undefined);
  input.onDidHide(() => finish(undefined));
  if (signal.aborted) queueMicrotask(onAbort);
  else signal.addEventListener('abort', onAbort, { once: true });
  return (value: T) => finish(value);
}
